from chunker.entry import main

main()
