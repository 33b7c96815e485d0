(function () {
  "use strict";
  var table = document.getElementById("docs");
  var body = table.tBodies[0];
  var filter = document.getElementById("filter");
  var only = document.getElementById("only-problems");
  var shown = document.getElementById("shown");
  function value(row, col, num) {
    var cell = row.cells[col];
    var v = cell.getAttribute("data-v");
    if (v === null) v = cell.textContent;
    return num ? Number(v) : v.toLowerCase();
  }
  Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, col) {
    th.addEventListener("click", function () {
      var num = th.classList.contains("num");
      var asc = th.getAttribute("aria-sort") !== "ascending";
      Array.prototype.forEach.call(table.tHead.rows[0].cells, function (o) { o.removeAttribute("aria-sort"); });
      th.setAttribute("aria-sort", asc ? "ascending" : "descending");
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = value(a, col, num), y = value(b, col, num);
        return (x < y ? -1 : x > y ? 1 : 0) * (asc ? 1 : -1);
      });
      rows.forEach(function (r) { body.appendChild(r); });
    });
  });
  function apply() {
    var q = filter.value.toLowerCase(), n = 0;
    Array.prototype.forEach.call(body.rows, function (r) {
      var hit = r.getAttribute("data-name").indexOf(q) >= 0 && (!only.checked || r.getAttribute("data-problem") === "1");
      r.hidden = !hit;
      n += hit ? 1 : 0;
    });
    shown.textContent = n + " of " + body.rows.length + " shown";
  }
  filter.addEventListener("input", apply);
  only.addEventListener("change", apply);
  apply();
})();
