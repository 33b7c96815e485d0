from chunker.cli import main

main()
