// memharness MiniWoB++ runtime: our own implementation of the page contract
// that MiniWoB++ task pages expect from ../core/core.js. The Go side serves it
// after npm's seedrandom (so Math.seedrandom exists) and drives it through
// CDP: set core.EPISODE_MAX_TIME, seed Math.random, call
// core.startEpisodeReal(), poll WOB_TASK_READY, then read the WOB_* globals.
var core = {};

// Episode globals read by the harness.
var WOB_REWARD_GLOBAL = 0;      // time-discounted reward of the last episode
var WOB_RAW_REWARD_GLOBAL = 0;  // reward before the time discount
var WOB_REWARD_REASON = null;   // optional explanation given by the page
var WOB_DONE_GLOBAL = false;    // true once the page ended the episode
var WOB_EPISODE_ID = 0;         // episodes finished so far
var WOB_TASK_READY = true;      // pages that load asynchronously set this false

core.EPISODE_MAX_TIME = 10000;  // ms; the harness overrides it per suite

// --- random helpers (all draw from Math.random, which the harness seeds) ---
core.randi = function (lo, hi) { return Math.floor(lo + Math.random() * (hi - lo)); };
core.randf = function (lo, hi) { return lo + Math.random() * (hi - lo); };
core.sample = function (xs) { return xs[core.randi(0, xs.length)]; };
core.shuffle = function (xs) {
  // Fisher-Yates, in place, walking down from the end.
  for (var i = xs.length - 1; i > 0; i--) {
    var j = core.randi(0, i + 1);
    var t = xs[i]; xs[i] = xs[j]; xs[j] = t;
  }
  return xs;
};

// --- URL options (?key=value) some pages read ---
core.QueryString = (function () {
  var out = {};
  var q = window.location.search.replace(/^\?/, '');
  if (q === '') return out;
  q.split('&').forEach(function (kv) {
    var i = kv.indexOf('=');
    var k = i < 0 ? kv : kv.slice(0, i);
    var v = i < 0 ? '' : decodeURIComponent(kv.slice(i + 1).replace(/\+/g, ' '));
    out[k] = v;
  });
  return out;
})();
core.getOpt = function (d, k, def) { return d[k] === undefined ? def : d[k]; };

// --- episode lifecycle ---
core.EP_TIMER = null;
core.CD_TIMER = null;
core.ept0 = null;
core.cover_div = null;
core.wob_scores = [];
core.wob_latest = null;

core.startEpisode = function () {
  core.createDisplay();
  if (core.cover_div === null) {
    var c = document.createElement('div');
    c.id = 'sync-task-cover';
    c.textContent = 'START';
    c.style.cssText = 'position:absolute;left:0;top:0;width:160px;height:210px;' +
      'background:#fff;z-index:100;text-align:center;line-height:210px;';
    c.onclick = function () { core.startEpisodeReal(); };
    document.body.appendChild(c);
    core.cover_div = c;
  }
  core.cover_div.style.display = 'block';
};

core.startEpisodeReal = function () {
  core.resetRefCode();
  WOB_DONE_GLOBAL = false;
  WOB_REWARD_GLOBAL = 0;
  WOB_RAW_REWARD_GLOBAL = 0;
  WOB_REWARD_REASON = null;
  genProblem();
  core.clearUserSelection();
  core.canvasClear();
  window.scrollTo(0, 0);
  if (core.cover_div !== null) core.cover_div.style.display = 'none';
  core.ept0 = Date.now();
  core.countdownTimer(core.EPISODE_MAX_TIME);
  if (core.EP_TIMER !== null) clearTimeout(core.EP_TIMER);
  core.EP_TIMER = setTimeout(function () {
    core.endEpisode(-1, false, 'timed out');
  }, core.EPISODE_MAX_TIME);
};

// endEpisode records the reward once per episode; later calls are ignored.
core.endEpisode = function (reward, timeProportional, reason) {
  if (core.EP_TIMER === null) return;
  clearTimeout(core.EP_TIMER);
  core.EP_TIMER = null;
  WOB_RAW_REWARD_GLOBAL = reward;
  WOB_REWARD_REASON = reason === undefined ? null : reason;
  if (timeProportional) {
    var elapsed = Date.now() - core.ept0;
    reward = reward * Math.max(0, 1 - elapsed / core.EPISODE_MAX_TIME);
  }
  WOB_REWARD_GLOBAL = reward;
  WOB_DONE_GLOBAL = true;
  WOB_EPISODE_ID++;
  core.updateDisplay(reward);
  core.clearTimer();
  core.startEpisode();
};

core.clearUserSelection = function () {
  var s = window.getSelection && window.getSelection();
  if (s && s.removeAllRanges) s.removeAllRanges();
};

// --- small heads-up display (kept out of the agent's observation) ---
core.createDisplay = function () {
  if (document.getElementById('reward-display') !== null) return;
  var canvas = document.createElement('canvas');
  canvas.id = 'click-canvas';
  canvas.width = 160;
  canvas.height = 210;
  document.body.appendChild(canvas);
  document.body.addEventListener('click', core.canvasDrawClick);
  var d = document.createElement('div');
  d.id = 'reward-display';
  ['reward-last', 'reward-avg', 'timer-countdown', 'episode-id'].forEach(function (id) {
    var s = document.createElement('span');
    s.id = id;
    s.textContent = id === 'episode-id' ? '0' : '-';
    d.appendChild(s);
  });
  document.body.appendChild(d);
};
core.reloadDisplay = function () {};
core.hideDisplay = function () {
  var d = document.getElementById('reward-display');
  if (d) d.style.display = 'none';
};
core.updateDisplay = function (reward) {
  core.wob_latest = reward;
  core.wob_scores.push(reward);
  core.wob_scores = core.wob_scores.slice(-10);
  core.setText('reward-last', reward.toFixed(2));
  core.setText('reward-avg', core.rewardAvg().toFixed(2));
  core.setText('episode-id', String(WOB_EPISODE_ID));
};
core.rewardAvg = function () {
  if (core.wob_scores.length === 0) return 0;
  return core.wob_scores.reduce(function (a, b) { return a + b; }, 0) / core.wob_scores.length;
};
core.setText = function (id, text) {
  var el = document.getElementById(id);
  if (el) el.textContent = text;
};
core.countdownTimer = function (ms) {
  core.clearTimer();
  var left = Math.round(ms / 1000);
  core.setText('timer-countdown', left + 's');
  core.CD_TIMER = setInterval(function () {
    left = Math.max(0, left - 1);
    core.setText('timer-countdown', left + 's');
  }, 1000);
};
core.clearTimer = function () {
  if (core.CD_TIMER !== null) clearInterval(core.CD_TIMER);
  core.CD_TIMER = null;
  core.setText('timer-countdown', '-');
};
core.canvasClear = function () {
  var c = document.getElementById('click-canvas');
  if (c && c.getContext) c.getContext('2d').clearRect(0, 0, c.width, c.height);
};
core.canvasDrawClick = function () {};

// --- what the harness reads ---
core.getUtterance = function () {
  var q = document.getElementById('query');
  return q === null ? '' : q.textContent.replace(/\s+/g, ' ').trim();
};

// Reference codes tag elements per episode (data-wob_ref / data-wob_eps), as
// the MiniWoB++ observations show them.
core.nextRefCode = 1;
core.resetRefCode = function () { core.nextRefCode = 1; };
core.tagRefs = function (root) {
  var eps = 'e' + WOB_EPISODE_ID;
  var all = root.getElementsByTagName('*');
  var els = [root];
  for (var i = 0; i < all.length; i++) els.push(all[i]);
  els.forEach(function (el) {
    if (el.dataset.wob_eps !== eps) {
      el.dataset.wob_ref = String(core.nextRefCode++);
      el.dataset.wob_eps = eps;
    }
  });
};
