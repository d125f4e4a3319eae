package miniwob

import (
	"context"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// Fixed JavaScript run in task pages through Runtime.callFunctionOn. Agent
// input (xpaths) only ever reaches these functions as JSON call arguments;
// no model text is evaluated as code.

// jsHasCore reports whether the runtime and the page's generator are loaded.
const jsHasCore = `function() {
  return typeof core === 'object' && typeof core.startEpisodeReal === 'function' &&
    typeof genProblem === 'function';
}`

// jsStart seeds Math.random, sets the episode clock and starts an episode.
const jsStart = `function(seed, maxTime) {
  Math.seedrandom(String(seed));
  core.EPISODE_MAX_TIME = maxTime;
  core.startEpisodeReal();
  return true;
}`

// jsState reads the reward globals, the utterance and the visible DOM: the
// outerHTML of #wrap plus any other visible body children (pop-ups such as
// the date picker), without the runtime's own overlay elements.
const jsState = `function() {
  var skip = {'reward-display': 1, 'sync-task-cover': 1, 'click-canvas': 1};
  var wrap = document.getElementById('wrap');
  if (wrap && typeof core === 'object' && typeof core.tagRefs === 'function') core.tagRefs(wrap);
  var parts = [];
  if (wrap) parts.push(wrap.outerHTML);
  Array.prototype.forEach.call(document.body ? document.body.children : [], function (el) {
    if (el === wrap || skip[el.id] || el.tagName === 'SCRIPT' || el.tagName === 'STYLE') return;
    if (el.getClientRects().length === 0) return;
    parts.push(el.outerHTML);
  });
  var num = function (v) { v = Number(v); return isFinite(v) ? v : 0; };
  return {
    ready: window.WOB_TASK_READY !== false,
    done: window.WOB_DONE_GLOBAL === true,
    reward: num(window.WOB_REWARD_GLOBAL),
    raw: num(window.WOB_RAW_REWARD_GLOBAL),
    reason: window.WOB_REWARD_REASON == null ? '' : String(window.WOB_REWARD_REASON),
    utterance: (typeof core === 'object' && typeof core.getUtterance === 'function') ? core.getUtterance() : '',
    html: parts.join('\n')
  };
}`

// jsLocate finds the first node matching an xpath, scrolls it into view and
// returns the centre of its box (or an error message for the agent).
const jsLocate = `function(xp) {
  var n;
  try {
    n = document.evaluate(xp, document, null, XPathResult.FIRST_ORDERED_NODE_TYPE, null).singleNodeValue;
  } catch (e) {
    return {error: 'invalid xpath: ' + String(e && e.message || e).slice(0, 200)};
  }
  if (!n) return {error: 'no element matches the xpath'};
  if (n.nodeType !== 1) n = n.parentElement;
  if (!n) return {error: 'the xpath matches no element'};
  if (n.scrollIntoView) n.scrollIntoView({block: 'center', inline: 'center'});
  var b = n.getBoundingClientRect();
  if (b.width === 0 || b.height === 0) return {error: 'the element is not visible'};
  return {x: b.left + b.width / 2, y: b.top + b.height / 2, tag: n.tagName.toLowerCase()};
}`

// jsSelectOption selects an <option> in its <select> the way a user would,
// firing input and change; "click" asks the caller to click instead.
const jsSelectOption = `function(xp) {
  var n;
  try {
    n = document.evaluate(xp, document, null, XPathResult.FIRST_ORDERED_NODE_TYPE, null).singleNodeValue;
  } catch (e) {
    return 'invalid xpath: ' + String(e && e.message || e).slice(0, 200);
  }
  if (!n) return 'no element matches the xpath';
  if (n.nodeType !== 1 || n.tagName !== 'OPTION') return 'click';
  var sel = n.closest('select');
  if (!sel) return 'the option is not inside a select';
  sel.focus();
  n.selected = true;
  sel.dispatchEvent(new Event('input', {bubbles: true}));
  sel.dispatchEvent(new Event('change', {bubbles: true}));
  return '';
}`

// jsGold asks one of our pages for its scripted solution.
const jsGold = `function() {
  return typeof wobGold === 'function' ? String(wobGold()) : '';
}`

// callJS calls one of the fixed functions above on the page's window, with
// args passed as JSON values (never spliced into source text).
func callJS[T any](fn string, args ...any) chromedp.Action[T] {
	return func(ctx context.Context, t *chromedp.Target) (T, error) {
		var zero T
		win, err := chromedp.Evaluate[*runtime.RemoteObject]("window", chromedp.EvalObjectGroup(objectGroup))(ctx, t)
		if err != nil {
			return zero, err
		}
		defer func() {
			_, _ = cdp.Call(ctx, t, runtime.ReleaseObjectGroup, runtime.ReleaseObjectGroupParams{ObjectGroup: objectGroup})
		}()
		on := func(p *runtime.CallFunctionOnParams) { p.ObjectID = win.ObjectID }
		return chromedp.CallFunctionOn[T](fn, on, args...)(ctx, t)
	}
}

// objectGroup holds the remote handles callJS creates, released after each call.
const objectGroup = "memharness-miniwob"
