// Static reports have no server: the filter form narrows the rows of the
// current page in place (method lists are separate pages).
document.addEventListener("DOMContentLoaded", function () {
  var form = document.querySelector("form.filters[data-static]");
  if (!form) return;
  function apply(ev) {
    if (ev) ev.preventDefault();
    var want = {};
    ["user", "field", "outcome"].forEach(function (k) {
      var el = form.elements[k];
      want[k] = el ? el.value : "";
    });
    var shown = 0;
    document.querySelectorAll("tr.sample").forEach(function (tr) {
      var ok = ["user", "field", "outcome"].every(function (k) {
        return !want[k] || tr.dataset[k] === want[k];
      });
      tr.hidden = !ok;
      var d = document.getElementById("d" + tr.dataset.idx);
      if (d && !ok) d.hidden = true;
      if (ok) shown++;
    });
    var c = document.getElementById("shown");
    if (c) c.textContent = shown + " shown on this page";
  }
  form.addEventListener("submit", apply);
  form.addEventListener("change", apply);
});

// A link to a sample (#sN) opens its inline details.
function openSample() {
  var d = location.hash && document.getElementById(location.hash.slice(1));
  if (d && d.tagName === "DETAILS") {
    d.open = true;
    d.scrollIntoView();
  }
}
window.addEventListener("hashchange", openSample);
document.addEventListener("DOMContentLoaded", openSample);
