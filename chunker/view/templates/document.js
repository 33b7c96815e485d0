(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("chunk-data").textContent);
  var chunks = data.chunks, budgets = data.budgets, paths = data.paths;
  var panel = document.getElementById("detail");
  var source = document.getElementById("source");
  var head = document.querySelector("header.top");
  var selected = -1;
  var KNOWN = ["chunk_id", "chunk_index", "chunk_key", "content_type", "section", "section_path", "header_path",
    "start_line", "end_line", "start_offset", "end_offset", "chars", "size", "flags", "part", "parts", "ziffer",
    "page", "added_lines", "content_for_embedding", "content_hash", "neighbors", "path", "blocks", "findings"];
  var WHY = {
    is_overflow: "over max_chars: a block that cannot be cut (an HTML block, math, one table row, a long link or line) is kept whole",
    is_sparse: "under min_chars: a short section, or the short rest of one, that no chunk of its section could take",
    is_continuation: "starts inside a block that the chunk before began (a cut paragraph, list, table, code or container)"
  };

  function setHead() {
    if (head) document.documentElement.style.setProperty("--head", head.offsetHeight + "px");
  }
  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function row(table, key, value) {
    var tr = el("tr");
    tr.appendChild(el("td", "", key));
    var td = el("td");
    if (value instanceof Node) td.appendChild(value); else td.textContent = value === null ? "\u2014" : String(value);
    tr.appendChild(td);
    table.appendChild(tr);
  }
  function chunkLink(id) {
    if (!id) return "\u2014";
    var a = el("a", "", id);
    a.href = "#" + id;
    a.setAttribute("data-chunk", String(indexOf(id)));
    return a;
  }
  function indexOf(id) {
    for (var i = 0; i < chunks.length; i++) if (chunks[i].chunk_id === id) return i;
    return -1;
  }
  function meter(size) {
    var box = el("div");
    var max = budgets.max || 1, scale = Math.max(max, size) * 1.05;
    var m = el("div", "meter");
    var fill = el("div", "fill" + (size > max ? " over" : (budgets.min && size < budgets.min ? " under" : "")));
    fill.style.width = (100 * size / scale) + "%";
    m.appendChild(fill);
    [["min", budgets.min, ""], ["target", budgets.target, " t"], ["max", budgets.max, ""]].forEach(function (b) {
      if (!b[1]) return;
      var mark = el("div", "mark" + b[2]);
      mark.style.left = (100 * b[1] / scale) + "%";
      mark.title = b[0] + " " + b[1];
      m.appendChild(mark);
    });
    box.appendChild(m);
    box.appendChild(el("div", "scale", size + " " + budgets.unit + " \u2014 min " + budgets.min + " \u00b7 target " +
      budgets.target + " \u00b7 max " + budgets.max));
    return box;
  }
  function show(i, scroll) {
    if (i < 0 || i >= chunks.length) return;
    var c = chunks[i];
    if (selected >= 0) {
      var old = document.getElementById(chunks[selected].chunk_id);
      if (old) old.classList.remove("sel");
    }
    selected = i;
    var section = document.getElementById(c.chunk_id);
    if (section) {
      section.classList.add("sel");
      if (scroll) section.scrollIntoView({block: "start"});
    }
    if (history.replaceState) history.replaceState(null, "", "#" + c.chunk_id);
    panel.textContent = "";
    var nav = el("div", "nav-buttons");
    var prev = el("button", "", "\u2190 previous"), next = el("button", "", "next \u2192");
    prev.disabled = i === 0; next.disabled = i === chunks.length - 1;
    prev.onclick = function () { show(i - 1, true); };
    next.onclick = function () { show(i + 1, true); };
    nav.appendChild(prev); nav.appendChild(next);
    nav.appendChild(el("span", "scale", "chunk " + (i + 1) + " of " + chunks.length + " (keys j / k)"));
    panel.appendChild(nav);
    panel.appendChild(el("h3", "chunk-id", c.chunk_id));
    var t = el("table", "kv");
    row(t, "key", c.chunk_key);
    row(t, "type", c.content_type);
    row(t, "section", c.section);
    var path = el("div"), headings = paths[c.path] || [];
    headings.forEach(function (h) { path.appendChild(el("div", "", "H" + h.level + " " + h.text)); });
    row(t, "heading path", headings.length ? path : "\u2014");
    row(t, "lines", c.start_line + "\u2013" + c.end_line);
    row(t, "offsets", c.start_offset + "\u2013" + c.end_offset);
    row(t, "chars", c.chars);
    row(t, "blocks", c.blocks);
    if (c.part !== null && c.part !== undefined) row(t, "part", c.part + " of " + c.parts);
    if (c.ziffer) row(t, "ziffer", c.ziffer);
    if (c.page !== null && c.page !== undefined) row(t, "page", c.page);
    row(t, "previous", chunkLink(c.neighbors && c.neighbors.previous_chunk_id));
    row(t, "next", chunkLink(c.neighbors && c.neighbors.next_chunk_id));
    Object.keys(c).forEach(function (k) {
      if (KNOWN.indexOf(k) < 0) row(t, k, typeof c[k] === "object" ? JSON.stringify(c[k]) : c[k]);
    });
    panel.appendChild(t);
    panel.appendChild(el("h2", "", "size against the budgets"));
    panel.appendChild(meter(c.size));
    panel.appendChild(el("h2", "", "flags"));
    var flags = el("div", "flags");
    Object.keys(c.flags || {}).forEach(function (f) {
      flags.appendChild(el("span", "pill" + (c.flags[f] ? " on" : ""), (c.flags[f] ? "\u2713 " : "") + f));
      flags.appendChild(document.createTextNode(" "));
    });
    panel.appendChild(flags);
    Object.keys(WHY).forEach(function (f) {
      if (c.flags && c.flags[f]) panel.appendChild(el("div", "scale why-flag", f + ": " + WHY[f]));
    });
    if (c.findings && c.findings.length) {
      panel.appendChild(el("h2", "", "findings (" + c.findings.length + ")"));
      var list = el("ul", "findings");
      c.findings.forEach(function (d) {
        var li = el("li", "diag " + d.severity);
        if (d.line) { var a = el("a", "", "line " + d.line); a.href = "#" + d.line; li.appendChild(a); li.appendChild(document.createTextNode(" ")); }
        li.appendChild(el("code", "", d.code));
        li.appendChild(document.createTextNode(" " + d.message));
        list.appendChild(li);
      });
      panel.appendChild(list);
    }
    panel.appendChild(el("h2", "", "added lines (" + (c.added_lines || []).length + ")"));
    (c.added_lines || []).forEach(function (a) {
      panel.appendChild(el("div", "scale", a.position));
      panel.appendChild(el("pre", "added", a.text));
    });
    panel.appendChild(el("h2", "", "content_for_embedding (" + c.chars + " chars)"));
    panel.appendChild(el("pre", "embedding", c.content_for_embedding));
    panel.appendChild(el("div", "scale", "content_hash " + c.content_hash));
  }
  source.addEventListener("click", function (e) {
    var s = e.target.closest("section.chunk");
    if (s) show(Number(s.getAttribute("data-i")), false);
  });
  document.addEventListener("click", function (e) {
    var a = e.target.closest("a[data-chunk]");
    if (!a) return;
    var i = Number(a.getAttribute("data-chunk"));
    if (i >= 0) { e.preventDefault(); show(i, true); }
  });
  document.addEventListener("keydown", function (e) {
    if (e.target && (e.target.tagName === "INPUT" || e.target.tagName === "TEXTAREA")) return;
    if (e.key === "j") show(selected + 1, true);
    if (e.key === "k") show(Math.max(0, selected - 1), true);
  });
  window.addEventListener("resize", setHead);
  setHead();
  var hash = decodeURIComponent(location.hash.slice(1));
  if (hash && indexOf(hash) >= 0) show(indexOf(hash), true);
  else if (/^\d+$/.test(hash)) { var line = document.getElementById(hash); if (line) line.scrollIntoView({block: "center"}); }
})();
