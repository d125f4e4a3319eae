// # OmniBehavior
//
// GenerateOmniBehavior / WriteOmniBehavior (knobs: Users, MinRecords,
// MaxRecords, Seed, English; the same config gives byte-identical files)
// write one official per-user JSON file per user,
// <dir>/zh/<user>.json (and <dir>/en/<user>.json with the English scene
// aliases when English is set), each {"user_NNN": {"user_profile": ...,
// "action_history": [...]}}. Records span 2025-09-01 .. 2025-11-30 (about
// half of a user's records fall in September, the history window; the rest
// in October-November, the test window), in lexicographic timestamp order
// (ads are date-only and sort first within their day). Every scene is
// present: 视频浏览, 直播间, 广告推荐, 商城购物, 搜索行为 and 电商客服对话,
// with the context fields and act types of the spec, so each of the 18
// binary labels can be 1 or 0. About 1.5% of the ad, live and video records trip a
// should_filter rule (ad show_cnt 0; live context exactly {live_comment_cnt:
// 0, live_like_cnt: 0}; video watch play_duration 0) and ~2% of the video and live records lack context
// (video without caption/ocr/asr; live with only the two counts and a
// cover). Planted, per user (the truth is in OBUser):
//
//   - base rates: every binary label has its own per-user rate, the product
//     of a global mean (positives rare: most labels are 0), a per-scene
//     engagement factor and a per-label factor, so users differ by scene;
//     video likes are 3x likelier on the user's favourite common topic,
//     visible in any window;
//   - a long-range habit (Habit): one context value the user almost always
//     (p=HabitRate) answers with one rare positive action — gifts in lives
//     of one category (live_category), collecting videos of one topic
//     (caption "#topic ..."), submitting forms for ads of one industry
//     (industry_main) or paying for items of one category
//     (category_level1_name). The value is never drawn otherwise; it is
//     injected densely into the user's earliest September records (the
//     first min(nSep-100, nSep/2), at least 30, of the nSep September
//     records, ~22% of them), almost never (2% of the scene's records) into
//     the last 100 September records and at 1.2% of all records in the test
//     window, so a recent 8K-token window (~50 records) usually shows none
//     of them (the 50 records before a test-window habit record show none
//     in ~60% of cases), while a long context, retrieval or memory
//     recovers the rule;
//   - a recency trap (Burst): for about a week ending before September 30
//     the user does one thing (like or comment or share) on nearly every
//     record of one scene (p=0.85, scene twice as frequent); the test window
//     is back at the base rate, so a reader trusting the last records of
//     September over-predicts early October.
package synth
