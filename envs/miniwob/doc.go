// Package miniwob is the MiniWoB++ web-browsing environment (LifeMem stream
// position 9), played in headless Chromium through chromedp.
//
// Pages and runtime. Task pages are read from a user's MiniWoB++ checkout
// (Open) or from the small suite written for memharness and embedded here
// (Embedded: 8 MiniWoB-style pages × 2 seeds, listed in pages/tasks.json).
// The MiniWoB++ core JavaScript is never shipped or loaded: runtime/core.js
// is our own implementation of the page contract (core.startEpisodeReal,
// core.endEpisode with a time-discounted reward, WOB_TASK_READY,
// WOB_DONE_GLOBAL, WOB_REWARD_GLOBAL, WOB_RAW_REWARD_GLOBAL,
// WOB_REWARD_REASON, the utterance in #query). jquery, jquery-ui, d3@3 and
// seedrandom come from npm (envs/miniwob/js, installed by
// scripts/ci-chromium.sh) and are served, with the pages, by a loopback HTTP
// server owned by the suite (one origin, no file:// quirks, and the runtime
// is substituted at core/core.js without touching the checkout).
//
// Episodes. A suite starts one Chromium on first use and opens one tab per
// episode; Close kills the browser. An episode loads the page, seeds
// Math.random with the task's seed and starts it; the first observation is
// "Task: <utterance>\nObservation:\n<#wrap outerHTML>". One Step is one model
// turn in Synapse's syntax: agent.click_xpath / type / press / click_option /
// movemouse calls with string arguments, optionally in `for _ in range(n):`
// loops, parsed by ParseActions (model text is never executed; xpaths reach
// a fixed JavaScript helper as JSON call arguments) and performed with CDP
// input events. Score is 1 when the page's raw reward is positive (Synapse's
// success criterion); Step.Reward carries the time-discounted reward. Each
// episode allows its task's Synapse turn budget (1 for most tasks). A page
// that hangs or throws ends the episode with an error, and its tab (or, if
// the tab cannot close, the browser) is discarded.
//
// Oracle. Gold plays a scratch episode with the same seed: our pages expose a
// scripted solution (wobGold); a few official pages have Go solvers that
// read the utterance (officialSolvers). Other official pages have no oracle.
package miniwob
