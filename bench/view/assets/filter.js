// The viewer's only script, served as a file (no inline script, so a strict
// Content-Security-Policy holds). Static reports have no server: the filter
// form narrows the rows of the current page in place, the search box
// matches sample IDs, answers and the inline prompts, and the column heads
// sort the page (method lists are separate pages).
// A link to one call (#call-N, from a sample's list of draws) opens it.
document.addEventListener("DOMContentLoaded", function () {
  function openTarget() {
    if (!/^#call-\d+$/.test(location.hash)) return;
    var li = document.getElementById(location.hash.slice(1));
    var d = li && li.querySelector("details");
    if (d) {
      d.open = true;
      li.scrollIntoView();
    }
  }
  openTarget();
  window.addEventListener("hashchange", openTarget);
});

document.addEventListener("DOMContentLoaded", function () {
  var form = document.querySelector("form.filters[data-static]");
  if (!form) return;
  function detailOf(tr) {
    return document.getElementById("d" + tr.dataset.idx);
  }
  function apply(ev) {
    if (ev) ev.preventDefault();
    var want = {};
    ["user", "field", "outcome"].forEach(function (k) {
      var el = form.elements[k];
      want[k] = el ? el.value : "";
    });
    var q = form.elements.q ? form.elements.q.value.toLowerCase() : "";
    var shown = 0;
    document.querySelectorAll("tr.sample").forEach(function (tr) {
      var d = detailOf(tr);
      var ok = ["user", "field", "outcome"].every(function (k) {
        return !want[k] || tr.dataset[k] === want[k];
      });
      if (ok && q) {
        var text = (tr.dataset.id + " " + tr.dataset.answer + " " + (d ? d.textContent : "")).toLowerCase();
        ok = text.indexOf(q) >= 0;
      }
      tr.hidden = !ok;
      if (d && !ok) d.hidden = true;
      if (d && ok) d.hidden = false;
      if (ok) shown++;
    });
    var c = document.getElementById("shown");
    if (c) c.textContent = shown + " shown on this page";
  }
  form.addEventListener("submit", apply);
  form.addEventListener("change", apply);
  if (form.elements.q) form.elements.q.addEventListener("input", apply);

  var numeric = { tokens: true, latency: true };
  var order = {};
  document.querySelectorAll("button.sort").forEach(function (b) {
    b.addEventListener("click", function () {
      var key = b.dataset.key;
      var desc = order[key] === "asc";
      order = {};
      order[key] = desc ? "desc" : "asc";
      var table = document.getElementById("samples");
      var rows = Array.prototype.slice.call(table.querySelectorAll("tr.sample"));
      function val(tr) {
        var v = key === "outcome" || key === "user" || key === "field" ? tr.dataset[key] : tr.dataset[key] || "";
        return numeric[key] ? parseFloat(v) || 0 : v;
      }
      rows.sort(function (a, b) {
        var x = val(a), y = val(b);
        var c = numeric[key] ? x - y : String(x).localeCompare(String(y), undefined, { numeric: true });
        if (c === 0) c = a.dataset.idx - b.dataset.idx;
        return desc ? -c : c;
      });
      var body = rows.length ? rows[0].parentNode : null;
      rows.forEach(function (tr) {
        body.appendChild(tr);
        var d = detailOf(tr);
        if (d) body.appendChild(d);
      });
      document.querySelectorAll("button.sort").forEach(function (o) {
        o.textContent = o.textContent.replace(/ [▲▼]$/, "");
      });
      b.textContent += desc ? " ▼" : " ▲";
    });
  });
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

// A transcripts page links each agent step's recorded input instead of
// carrying it; opening the step fetches the input into it (without script
// the link opens the input as a page).
document.addEventListener("toggle", function (ev) {
  var d = ev.target;
  if (!d.open || !d.classList || !d.classList.contains("step-calls")) return;
  var a = d.querySelector("a.step-input-link");
  if (!a || d.dataset.loading) return;
  d.dataset.loading = "1";
  var body = a.parentNode;
  fetch(a.getAttribute("href") + "&part=1", { credentials: "same-origin" })
    .then(function (r) {
      if (!r.ok) throw new Error(r.status + " " + r.statusText);
      return r.text();
    })
    .then(function (html) {
      body.innerHTML = html; // the server's escaped template output
      d.dataset.loaded = "1";
    })
    .catch(function (err) {
      delete d.dataset.loading;
      var p = document.createElement("p");
      p.className = "error";
      p.textContent = "The input could not be fetched (" + err.message + "); the link opens it.";
      body.appendChild(p);
    });
}, true);
