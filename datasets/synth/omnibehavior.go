package synth

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"
)

// OmniBehaviorVersion changes whenever the generator's output for a given
// config changes; callers that cache generated files key them on it.
const OmniBehaviorVersion = 1

// Canonical (Chinese) OmniBehavior scene names.
const (
	OBVideo   = "视频浏览"
	OBLive    = "直播间"
	OBAd      = "广告推荐"
	OBShop    = "商城购物"
	OBSearch  = "搜索行为"
	OBService = "电商客服对话"
)

// OmniBehaviorSceneEN returns the English alias of a canonical scene name
// (the string the official en/ files carry), or the name itself.
func OmniBehaviorSceneEN(scene string) string {
	switch scene {
	case OBVideo:
		return "Video Browsing"
	case OBLive:
		return "Live Streaming"
	case OBAd:
		return "Advertisement"
	case OBShop:
		return "E-commerce"
	case OBService:
		return "Customer Service"
	case OBSearch:
		return "Search Behavior"
	}
	return scene
}

// OmniBehaviorLabels are the 18 binary question fields of Table 1, in
// scene order (video 6, live 6, ad 4, shop 2).
func OmniBehaviorLabels() []string {
	return []string{
		"video_completed", "video_liked", "video_commented", "video_shared", "video_collected", "video_followed",
		"live_liked", "live_commented", "live_sent_gift", "live_followed", "live_shared", "live_clicked_cart",
		"ad_activated", "ad_form_submitted", "ad_liked", "ad_commented",
		"shop_added_to_cart", "shop_order_success",
	}
}

// obLabelMean is the population mean of each label's per-user base rate:
// positives are rare except completion, cart and purchase.
var obLabelMean = map[string]float64{
	"video_completed": 0.35, "video_liked": 0.06, "video_commented": 0.015, "video_shared": 0.012,
	"video_collected": 0.015, "video_followed": 0.01,
	"live_liked": 0.08, "live_commented": 0.04, "live_sent_gift": 0.01, "live_followed": 0.015,
	"live_shared": 0.008, "live_clicked_cart": 0.06,
	"ad_activated": 0.02, "ad_form_submitted": 0.015, "ad_liked": 0.02, "ad_commented": 0.008,
	"shop_added_to_cart": 0.12, "shop_order_success": 0.06,
}

// Planted-signal strengths (see the package doc).
const (
	// HabitRate is P(habit label = 1) on a record carrying the habit value.
	HabitRate = 0.9
	// BurstRate is P(burst label = 1) on a burst-scene record in the burst week.
	BurstRate = 0.85

	obEarlyHabitShare = 0.22  // share of early-September records that are habit records
	obLateHabitShare  = 0.02  // habit share of the habit scene's records, late September
	obTestHabitRate   = 0.012 // habit records per record, October-November
	obFilterShare     = 0.015
	obThinShare       = 0.02 // records with insufficient context
	obFavLikeBoost    = 3.0
)

// OmniBehaviorConfig sizes the synthetic OmniBehavior copy. Zero fields take
// the defaults of the embedded suite.
type OmniBehaviorConfig struct {
	Users      int    // default 200 (user_001 ... user_200)
	MinRecords int    // default 300 records per user
	MaxRecords int    // default 600
	Seed       uint64 // PCG seed; the same config gives byte-identical files
	English    bool   // also write <dir>/en with the English scene aliases
}

func (c OmniBehaviorConfig) withDefaults() (OmniBehaviorConfig, error) {
	if c.Users == 0 {
		c.Users = 200
	}
	if c.MinRecords == 0 {
		c.MinRecords = 300
	}
	if c.MaxRecords == 0 {
		c.MaxRecords = max(600, c.MinRecords)
	}
	switch {
	case c.Users < 1:
		return c, fmt.Errorf("synth: OmniBehavior users must be positive, got %d", c.Users)
	case c.MinRecords < 120:
		return c, fmt.Errorf("synth: OmniBehavior needs at least 120 records per user, got %d", c.MinRecords)
	case c.MaxRecords < c.MinRecords:
		return c, fmt.Errorf("synth: OmniBehavior MaxRecords %d < MinRecords %d", c.MaxRecords, c.MinRecords)
	}
	return c, nil
}

// OBField is one key of a JSON object; OBObject keeps the keys in the
// official order (encoding/json maps would sort them).
type OBField struct {
	Key   string
	Value any // nil, bool, int, float64, string, []string, OBObject or []OBObject
}

// OBObject is an ordered JSON object.
type OBObject []OBField

// Get returns the value of key.
func (o OBObject) Get(key string) (any, bool) {
	for _, f := range o {
		if f.Key == key {
			return f.Value, true
		}
	}
	return nil, false
}

// OBRecord is one generated record with its planted truth.
type OBRecord struct {
	Scene     string // canonical (Chinese) scene name
	Timestamp string // "YYYY-MM-DD HH:MM:SS", ads "YYYY-MM-DD"
	Context   OBObject
	Actions   []OBObject
	// Labels are the binary fields (OmniBehaviorLabels) equal to 1.
	Labels []string
	// Filtered: trips should_filter; Thin: fails has_sufficient_context;
	// HabitHit: carries the user's habit value; InBurst: a burst-scene
	// record inside the burst week.
	Filtered, Thin, HabitHit, InBurst bool
}

// OBHabit is a long-range habit: on Scene records whose context Key holds
// Value the user does Label with probability HabitRate. For video the key is
// "caption" and the caption starts with "#"+Value+" ".
type OBHabit struct {
	Scene, Key, Value, Label string
}

// Match reports whether a decoded record (encoding/json map form) carries
// the habit value.
func (h OBHabit) Match(rec map[string]any) bool {
	if t, _ := rec["type"].(string); t != h.Scene && t != OmniBehaviorSceneEN(h.Scene) {
		return false
	}
	ctx, _ := rec["context"].(map[string]any)
	v, _ := ctx[h.Key].(string)
	if h.Key == "caption" {
		return strings.HasPrefix(v, "#"+h.Value+" ")
	}
	return v == h.Value
}

// OBBurst is a recency trap: from From to To (dates, inclusive, all in late
// September) the user does Label on Scene records with probability
// BurstRate, then returns to the base rate.
type OBBurst struct {
	Scene, Label, From, To string
}

// OBUser is one generated user with the truth planted in its history.
type OBUser struct {
	ID        string // "user_001"
	Profile   string // Chinese profile
	ProfileEN string
	// Rates are the user's base P(label = 1) per binary field.
	Rates    map[string]float64
	FavTopic string // video topic liked obFavLikeBoost times more often
	Habit    OBHabit
	Burst    OBBurst
	Records  []OBRecord // sorted by timestamp string
}

// OmniBehaviorData is a generated dataset and its planted truth.
type OmniBehaviorData struct {
	Users []OBUser
}

// GenerateOmniBehavior builds the dataset in memory. Each user has its own
// PCG stream (seeded from cfg.Seed and the user's index), so a user's data
// do not depend on how many users are generated.
func GenerateOmniBehavior(cfg OmniBehaviorConfig) (*OmniBehaviorData, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	d := &OmniBehaviorData{Users: make([]OBUser, cfg.Users)}
	width := max(3, len(fmt.Sprint(cfg.Users)))
	for i := range cfg.Users {
		rng := rand.New(rand.NewPCG(cfg.Seed, 0x6f6d6e69_00000000|uint64(i))) // stream tag "omni"
		d.Users[i] = genOBUser(rng, fmt.Sprintf("user_%0*d", width, i+1), cfg)
	}
	return d, nil
}

var obEpoch = time.Date(2025, 9, 1, 0, 0, 0, 0, time.UTC)

// obHourWeight is the diurnal activity profile.
var obHourWeight = []float64{3, 1.5, 0.8, 0.5, 0.4, 0.5, 1, 2.5, 4, 4, 4, 4.5, 6, 6, 4.5, 4, 4, 4.5, 5.5, 7, 8.5, 9, 8, 5.5}

type obSlot struct {
	t              int64 // seconds since 2025-09-01 00:00:00
	scene          string
	habit, burst   bool
	ts             string
	sepIndex, zone int // zone 0 early Sep, 1 late Sep, 2 test window
}

// obScenes is the scene order of the per-user weight vector.
var obScenes = []string{OBVideo, OBLive, OBAd, OBShop, OBSearch, OBService}

func genOBUser(rng *rand.Rand, id string, cfg OmniBehaviorConfig) OBUser {
	u := OBUser{ID: id, Rates: make(map[string]float64, len(obLabelMean))}
	u.Profile, u.ProfileEN = obProfile(rng)

	// Base rates: global mean x scene engagement x label factor.
	eng := map[string]float64{}
	for _, s := range []string{"video", "live", "ad", "shop"} {
		eng[s] = math.Exp(rng.NormFloat64() * 0.7)
	}
	for _, l := range OmniBehaviorLabels() {
		f := math.Exp(rng.NormFloat64() * 0.4)
		if l == "video_completed" {
			u.Rates[l] = min(0.85, max(0.05, obLabelMean[l]*f))
			continue
		}
		u.Rates[l] = min(0.6, max(0.001, obLabelMean[l]*f*eng[l[:strings.IndexByte(l, '_')]]))
	}

	// Scene mix.
	sceneW := []float64{0.40, 0.18, 0.12, 0.12, 0.12, 0.04}
	for i := range sceneW {
		sceneW[i] *= math.Exp(rng.NormFloat64() * 0.3)
	}

	// Habit.
	switch weighted(rng, []float64{0.35, 0.35, 0.15, 0.15}) {
	case 0:
		u.Habit = OBHabit{OBLive, "live_category", pick(rng, obLiveRareCats), "live_sent_gift"}
	case 1:
		u.Habit = OBHabit{OBVideo, "caption", pick(rng, obVideoRareTopics), "video_collected"}
	case 2:
		ind := pick(rng, obAdIndustries).name
		lbl := "ad_form_submitted" // leads: education, finance, housing, ...
		if ind == "游戏" || ind == "工具软件" {
			lbl = "ad_activated" // apps are activated
		}
		u.Habit = OBHabit{OBAd, "industry_main", ind, lbl}
	default:
		u.Habit = OBHabit{OBShop, "category_level1_name", pick(rng, obShopCats).l1, "shop_order_success"}
	}
	u.FavTopic = pick(rng, obVideoCommonTopics)

	// Burst: 6-7 days ending by Sep 29.
	startDay := 20 + rng.IntN(4)
	endDay := min(28, startDay+5+rng.IntN(2))
	bursts := []OBBurst{
		{Scene: OBVideo, Label: "video_liked"}, {Scene: OBVideo, Label: "video_commented"},
		{Scene: OBVideo, Label: "video_shared"}, {Scene: OBLive, Label: "live_liked"},
		{Scene: OBLive, Label: "live_commented"},
	}
	u.Burst = bursts[weighted(rng, []float64{0.3, 0.15, 0.15, 0.25, 0.15})]
	u.Burst.From = obEpoch.AddDate(0, 0, startDay).Format(time.DateOnly)
	u.Burst.To = obEpoch.AddDate(0, 0, endDay).Format(time.DateOnly)

	// Record times: about half in September.
	n := cfg.MinRecords + rng.IntN(cfg.MaxRecords-cfg.MinRecords+1)
	nSep := int(math.Round(float64(n) * (0.5 + 0.05*rng.Float64())))
	slots := make([]obSlot, n)
	for i := range slots {
		day := rng.IntN(30)
		if i >= nSep {
			day = 30 + rng.IntN(61)
		}
		slots[i].t = int64(day)*86400 + int64(weighted(rng, obHourWeight))*3600 + rng.Int64N(3600)
	}
	slices.SortFunc(slots, func(a, b obSlot) int { return cmp.Compare(a.t, b.t) })
	early := max(min(nSep-100, nSep/2), min(30, nSep))

	habitShare := sceneW[slices.Index(obScenes, u.Habit.Scene)] / sum(sceneW)
	burstW := slices.Clone(sceneW)
	burstW[slices.Index(obScenes, u.Burst.Scene)] *= 2
	for i := range slots {
		s := &slots[i]
		day := int(s.t / 86400)
		inBurst := day >= startDay && day <= endDay
		w := sceneW
		if inBurst {
			w = burstW
		}
		switch {
		case i < early:
			s.zone = 0
			if rng.Float64() < obEarlyHabitShare {
				s.scene, s.habit = u.Habit.Scene, true
				continue
			}
		case i < nSep:
			s.zone = 1
		default:
			s.zone = 2
		}
		s.scene = obScenes[weighted(rng, w)]
		s.burst = inBurst && s.scene == u.Burst.Scene
		if s.scene == u.Habit.Scene && !s.burst {
			p := obLateHabitShare
			if s.zone == 2 {
				p = min(0.5, obTestHabitRate/habitShare)
			}
			s.habit = rng.Float64() < p
		}
	}
	// Timestamps; ads are date-only and sort before the timed records of
	// their day.
	for i := range slots {
		t := obEpoch.Add(time.Duration(slots[i].t) * time.Second)
		if slots[i].scene == OBAd {
			slots[i].ts = t.Format(time.DateOnly)
		} else {
			slots[i].ts = t.Format(time.DateTime)
		}
	}
	slices.SortStableFunc(slots, func(a, b obSlot) int { return strings.Compare(a.ts, b.ts) })

	g := obGen{rng: rng, u: &u}
	g.liveW = catWeights(rng, obLiveCats, u.Habit.Value)
	g.topicW = catWeights(rng, obVideoTopics, u.Habit.Value)
	g.adW = catWeights(rng, names(obAdIndustries), u.Habit.Value)
	g.shopW = catWeights(rng, shopL1(), u.Habit.Value)
	u.Records = make([]OBRecord, len(slots))
	for i, s := range slots {
		u.Records[i] = g.record(s)
	}
	return u
}

// catWeights gives each category a random popularity for one user; the
// habit value gets weight 0 (it appears only where it is planted).
func catWeights(rng *rand.Rand, cats []string, habit string) []float64 {
	w := make([]float64, len(cats))
	for i, c := range cats {
		if c != habit {
			w[i] = math.Exp(rng.NormFloat64())
		}
	}
	return w
}

func pick[T any](rng *rand.Rand, xs []T) T { return xs[rng.IntN(len(xs))] }

func obProfile(rng *rand.Rand) (zh, en string) {
	ages := []string{"18-23", "24-30", "31-40", "41-49", "50+"}
	genders := [][2]string{{"男性", "male"}, {"女性", "female"}}
	edu := [][2]string{{"高中及以下", "a high-school education or below"}, {"大专", "a junior-college degree"},
		{"本科", "a bachelor's degree"}, {"硕士及以上", "a master's degree or above"}}
	city := [][2]string{{"一线城市", "a tier-1 city"}, {"新一线城市", "a new tier-1 city"},
		{"二线城市", "a tier-2 city"}, {"三线城市", "a tier-3 city"}, {"四线及以下城市", "a tier-4 or smaller city"}}
	a := pick(rng, ages)
	g := pick(rng, genders)
	e := edu[weighted(rng, []float64{3, 3, 4, 1})]
	c := pick(rng, city)
	zh = fmt.Sprintf("这是一位年龄在%s岁的%s用户，学历为%s。居住在%s。", a, g[0], e[0], c[0])
	en = fmt.Sprintf("This is a %s user aged %s with %s. Lives in %s.", g[1], a, e[1], c[1])
	return zh, en
}

func sum(xs []float64) float64 {
	t := 0.0
	for _, x := range xs {
		t += x
	}
	return t
}
