package synth

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"
)

// Vocabularies of our own; the rare entries are the habit candidates and are
// never drawn for a user except where the habit is planted.
var (
	obLiveRareCats = []string{"美食", "手工", "书法", "钓鱼", "天文"}
	obLiveCats     = []string{"美食", "手工", "书法", "钓鱼", "天文", "游戏", "音乐", "户外", "带货", "舞蹈", "聊天", "知识", "体育", "宠物", "汽车"}

	obVideoRareTopics   = []string{"手工木作", "书法", "钓鱼", "天文", "园艺", "历史"}
	obVideoCommonTopics = []string{"美食", "搞笑", "萌宠", "旅行", "健身", "数码", "美妆", "育儿", "汽车", "摄影"}
	obVideoTopics       = append(append([]string{}, obVideoRareTopics...), obVideoCommonTopics...)

	obAdIndustries = []obIndustry{
		{"教育培训", "职业教育", []string{"考证速成课", "少儿编程体验课", "英语口语训练营"}},
		{"游戏", "休闲游戏", []string{"消消乐大作战", "三国策略手游", "农场物语"}},
		{"金融", "信用卡", []string{"白金信用卡", "理财通", "车险比价"}},
		{"工具软件", "效率工具", []string{"记账助手App", "扫描全能王", "清理大师"}},
		{"本地生活", "餐饮团购", []string{"火锅双人套餐", "洗车年卡", "电影票特惠"}},
		{"房产家居", "装修服务", []string{"全屋定制设计", "旧房翻新报价", "二手房估价"}},
		{"医疗健康", "口腔", []string{"种植牙咨询", "体检套餐", "近视手术评估"}},
		{"旅游出行", "酒店", []string{"周末酒店特价", "机票盲盒", "亲子游套餐"}},
	}

	obShopCats = []obShopCat{
		{"服饰", "女装", "连衣裙", "服饰鞋包", "服装", "女装", []string{"法式碎花连衣裙", "通勤西装外套", "针织开衫"}},
		{"食品", "零食", "坚果", "食品饮料", "休闲食品", "坚果炒货", []string{"每日坚果30包", "手撕牛肉干", "海苔脆片"}},
		{"美妆", "护肤", "面霜", "美妆个护", "护肤", "面部护理", []string{"保湿修护面霜", "玻尿酸精华", "氨基酸洁面"}},
		{"数码", "耳机", "蓝牙耳机", "3C数码", "影音", "耳机", []string{"降噪蓝牙耳机", "运动挂耳耳机", "电竞头戴耳机"}},
		{"家居", "收纳", "收纳箱", "家居日用", "收纳整理", "收纳箱", []string{"折叠收纳箱三件套", "桌面收纳架", "真空压缩袋"}},
		{"厨具", "锅具", "炒锅", "家居", "厨房", "锅具", []string{"不粘锅炒锅30cm", "铸铁汤锅", "麦饭石平底锅"}},
		{"母婴", "奶粉", "婴儿奶粉", "母婴", "喂养", "奶粉", []string{"婴儿配方奶粉3段", "宝宝辅食米粉", "吸管奶瓶"}},
		{"宠物用品", "猫粮", "全价猫粮", "宠物", "宠物食品", "猫粮", []string{"全价无谷猫粮", "冻干猫零食", "猫砂豆腐砂"}},
		{"运动户外", "钓具", "鱼竿", "运动户外", "垂钓", "鱼竿", []string{"碳素台钓竿", "路亚套装", "夜光浮漂"}},
		{"图书", "文学", "小说", "图书音像", "图书", "文学", []string{"长篇悬疑小说", "唐诗三百首", "天文入门图鉴"}},
	}

	obLiveTitles = map[string][]string{
		"美食": {"今晚做红烧肉", "家常小炒教学", "夜宵烧烤开播"}, "手工": {"编织一顶毛线帽", "皮具手作现场"},
		"书法": {"楷书基础笔画", "写一幅春联"}, "钓鱼": {"水库夜钓直播", "野河路亚实战"}, "天文": {"今晚看木星", "星空摄影教学"},
		"游戏": {"王者上分局", "和平精英四排"}, "音乐": {"吉他弹唱夜", "老歌点唱"}, "户外": {"徒步登山", "露营日记"},
		"带货": {"秋季新品专场", "源头工厂直销"}, "舞蹈": {"爵士舞教学", "广场舞合集"}, "聊天": {"深夜聊天室", "听你讲故事"},
		"知识": {"数学题讲解", "职场经验分享"}, "体育": {"篮球赛解说", "健身打卡"}, "宠物": {"猫咪日常", "狗狗训练"},
		"汽车": {"新车试驾", "二手车评估"},
	}
	obPhrases    = []string{"三分钟学会", "第一次尝试", "一口气看完", "新手也能做", "记录一下今天的", "全网最细的", "一个人的"}
	obComments   = []string{"太厉害了", "学到了", "哈哈哈", "支持一下", "求教程", "好看", "已收藏"}
	obFansRanges = []struct {
		lo, hi int
		name   string
	}{{100, 10000, "1k-1w"}, {10000, 100000, "1w-10w"}, {100000, 1000000, "10w-100w"}, {1000000, 5000000, "100w-500w"}}
	obVerifyTypes = []string{"个人认证", "机构认证", "企业认证"}
	obTickets     = []string{"物流查询", "退换货", "商品咨询", "售后维修", "发票问题"}
)

var obLabelIndex = func() map[string]int {
	m := map[string]int{}
	for i, l := range OmniBehaviorLabels() {
		m[l] = i
	}
	return m
}()

type obIndustry struct {
	name, sub string
	products  []string
}

type obShopCat struct {
	l1, l2, l3, i1, i2, i3 string
	titles                 []string
}

func names(xs []obIndustry) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = x.name
	}
	return out
}

func shopL1() []string {
	out := make([]string, len(obShopCats))
	for i, x := range obShopCats {
		out[i] = x.l1
	}
	return out
}

// obGen builds the records of one user.
type obGen struct {
	rng                       *rand.Rand
	u                         *OBUser
	liveW, topicW, adW, shopW []float64
	rec                       *OBRecord
	habit, burst              bool
}

func (g *obGen) record(s obSlot) OBRecord {
	r := OBRecord{Scene: s.scene, Timestamp: s.ts, HabitHit: s.habit, InBurst: s.burst}
	g.rec, g.habit, g.burst = &r, s.habit, s.burst
	switch s.scene {
	case OBVideo:
		g.video(s.t)
	case OBLive:
		g.live()
	case OBAd:
		g.ad(s.t)
	case OBShop:
		g.shop()
	case OBSearch:
		g.search()
	default:
		g.service(s.t)
	}
	slices.SortFunc(r.Labels, func(a, b string) int { return cmp.Compare(obLabelIndex[a], obLabelIndex[b]) })
	return r
}

// pos draws label l for the current record and records it when positive.
func (g *obGen) pos(l string) bool {
	return g.posScaled(l, 1)
}

func (g *obGen) posScaled(l string, scale float64) bool {
	p := min(0.95, g.u.Rates[l]*scale)
	switch {
	case g.habit && l == g.u.Habit.Label:
		p = HabitRate
	case g.burst && l == g.u.Burst.Label:
		p = BurstRate
	}
	if g.rng.Float64() < p {
		g.rec.Labels = append(g.rec.Labels, l)
		return true
	}
	return false
}

// special returns 1 for a should_filter record, 2 for a thin one, 0 else;
// habit records are always normal.
func (g *obGen) special() int {
	if g.habit {
		return 0
	}
	x := g.rng.Float64()
	switch {
	case x < obFilterShare:
		g.rec.Filtered = true
		return 1
	case x < obFilterShare+obThinShare:
		g.rec.Thin = true
		return 2
	}
	return 0
}

func (g *obGen) count(mean float64) int {
	return int(math.Exp(math.Log(mean) + g.rng.NormFloat64()))
}

func act(typ string, kv ...any) OBObject {
	o := OBObject{{"type", typ}}
	for i := 0; i < len(kv); i += 2 {
		o = append(o, OBField{kv[i].(string), kv[i+1]})
	}
	return o
}

func obTime(t int64) time.Time { return obEpoch.Add(time.Duration(t) * time.Second) }

func (g *obGen) price() float64 {
	cents := []float64{0.9, 0.5, 0.8, 0.0, 0.99}
	return math.Round((float64(5+g.rng.IntN(400))+pick(g.rng, cents))*100) / 100
}

func (g *obGen) video(t int64) {
	rng := g.rng
	sp := g.special()
	topic := g.u.Habit.Value
	if !g.habit {
		topic = obVideoTopics[weighted(rng, g.topicW)]
	}
	caption := "#" + topic + " " + pick(rng, obPhrases) + topic
	ocr := topic + " " + pick(rng, obPhrases)
	asr := "大家好，今天给大家分享" + topic
	if sp == 2 {
		caption, ocr, asr = "", "", ""
	}
	dur := min(600, max(5, int(math.Exp(3.6+0.7*rng.NormFloat64()))))
	fr := obFansRanges[weighted(rng, []float64{4, 3, 2, 1})]
	fans := fr.lo + rng.IntN(fr.hi-fr.lo)
	show := g.count(20000)
	play := show * (60 + rng.IntN(40)) / 100
	verified := rng.IntN(3) == 0
	vtype := ""
	if verified {
		vtype = pick(rng, obVerifyTypes)
	}
	g.rec.Context = OBObject{
		{"caption", caption}, {"ocr", ocr}, {"asr", asr}, {"duration", dur},
		{"fans_user_num", fans}, {"fans_user_num_range", fr.name}, {"is_verified", verified},
		{"verification_type", vtype}, {"photo_type", "VIDEO"},
		{"upload_timestamp", obTime(t - rng.Int64N(10*86400)).Format(time.DateTime)},
		{"show_cnt", show}, {"play_cnt", play}, {"complete_play_cnt", play * (10 + rng.IntN(40)) / 100},
		{"like_cnt", play * rng.IntN(8) / 100}, {"comment_cnt", play * rng.IntN(10) / 1000},
		{"share_cnt", play * rng.IntN(5) / 1000}, {"collect_cnt", play * rng.IntN(10) / 1000},
		{"download_cnt", play * rng.IntN(3) / 1000}, {"follow_cnt", play * rng.IntN(3) / 1000},
		{"report_cnt", rng.IntN(3)}, {"reduce_similar_cnt", rng.IntN(5)},
	}
	if sp == 1 {
		g.rec.Actions = []OBObject{act("watch", "play_duration", 0, "played_loop_cnt", 0, "is_complete_play", false,
			"is_fast_forward_play", false, "is_backward_play", false, "is_enlarge_play", false)}
		return
	}
	done := g.pos("video_completed")
	pd, loops := dur, 0
	if done {
		if rng.IntN(5) == 0 {
			loops = 1
		}
	} else {
		pd = 1 + rng.IntN(max(1, dur-1))
	}
	acts := []OBObject{act("watch", "play_duration", pd, "played_loop_cnt", loops, "is_complete_play", done,
		"is_fast_forward_play", rng.IntN(10) == 0, "is_backward_play", rng.IntN(20) == 0, "is_enlarge_play", rng.IntN(30) == 0)}
	likeScale := 1.0
	if topic == g.u.FavTopic {
		likeScale = obFavLikeBoost
	}
	if g.posScaled("video_liked", likeScale) {
		acts = append(acts, act("like"))
	}
	if g.pos("video_commented") {
		acts = append(acts, act("comment", "comment_detail_list", []string{pick(rng, obComments)},
			"comment_stay_duration", 3+rng.IntN(60), "is_at_friend_in_comment", rng.IntN(8) == 0))
	}
	if g.pos("video_shared") {
		acts = append(acts, act("share", "share_cnt", 1))
	}
	if g.pos("video_collected") {
		acts = append(acts, act("collect", "collect_cnt", 1))
	}
	if g.pos("video_followed") {
		acts = append(acts, act("follow"))
	}
	if len(acts) == 1 && rng.IntN(100) == 0 {
		acts = append(acts, act("dislike", "reduce_similar_cnt", 1))
	}
	g.rec.Actions = acts
}

func (g *obGen) live() {
	rng := g.rng
	sp := g.special()
	cat := g.u.Habit.Value
	if !g.habit {
		cat = obLiveCats[weighted(rng, g.liveW)]
	}
	likes, comments := g.count(3000), g.count(80)
	cover := "主播正在" + pick(rng, obLiveTitles[cat])
	shopLive := false
	switch sp {
	case 1:
		g.rec.Thin = true // no title or category either
		g.rec.Context = OBObject{{"live_comment_cnt", 0}, {"live_like_cnt", 0}}
	case 2:
		g.rec.Context = OBObject{{"live_comment_cnt", comments}, {"live_like_cnt", likes}, {"live_cover_content", cover}}
	default:
		shopLive = cat == "带货" || rng.IntN(4) == 0
		ctx := OBObject{{"live_title", pick(rng, obLiveTitles[cat])}, {"live_category", cat}}
		if cat == "游戏" {
			ctx = append(ctx, OBField{"live_game_name", pick(rng, []string{"王者荣耀", "和平精英", "原神"})})
		}
		users := g.count(2000)
		ctx = append(ctx, OBField{"is_shop_live", shopLive}, OBField{"live_total_user_cnt", users},
			OBField{"live_total_view_cnt", users * (2 + rng.IntN(12))},
			OBField{"live_total_view_duration", users * (60 + rng.IntN(600))},
			OBField{"live_like_cnt", likes}, OBField{"live_comment_cnt", comments}, OBField{"live_cover_content", cover})
		if shopLive {
			var items []OBObject
			for range 1 + rng.IntN(3) {
				c := pick(rng, obShopCats)
				items = append(items, OBObject{{"title", pick(rng, c.titles)}, {"price", g.price()}})
			}
			ctx = append(ctx, OBField{"items", items})
		}
		g.rec.Context = ctx
	}
	acts := []OBObject{act("watch", "play_duration", 3+g.count(120), "play_count", 1+rng.IntN(2))}
	if sp == 1 {
		g.rec.Actions = acts
		return
	}
	if g.pos("live_liked") {
		acts = append(acts, act("like", "like_cnt", 1+g.count(5)))
	}
	if g.pos("live_commented") {
		acts = append(acts, act("comment", "comment_cnt", 1+rng.IntN(3), "comment_content", []string{pick(rng, obComments)}))
	}
	if g.pos("live_sent_gift") {
		acts = append(acts, act("send_gift", "gift_amount", 1+rng.IntN(10)))
	}
	if g.pos("live_followed") {
		acts = append(acts, act("follow", "is_follow_action", rng.IntN(20) != 0)) // presence is the label
	}
	if g.pos("live_shared") {
		acts = append(acts, act("share", "share_cnt", 1))
	}
	if shopLive {
		c := pick(rng, obShopCats)
		if g.pos("live_clicked_cart") {
			acts = append(acts, act("click_cart", "is_click_cart_action", true, "item_title", pick(rng, c.titles), "item_price", g.price()))
		} else if rng.IntN(20) == 0 {
			acts = append(acts, act("click_cart", "is_click_cart_action", false)) // a negative despite the act
		}
	}
	g.rec.Actions = acts
}

func (g *obGen) ad(t int64) {
	rng := g.rng
	sp := g.special()
	if sp == 2 {
		sp = 0 // every ad has sufficient context
		g.rec.Thin = false
	}
	ind := obAdIndustries[weighted(rng, g.adW)]
	if g.habit {
		for _, x := range obAdIndustries {
			if x.name == g.u.Habit.Value {
				ind = x
			}
		}
	}
	product := pick(rng, ind.products)
	orNull := func(v any) any {
		if rng.IntN(5) < 2 {
			return nil
		}
		return v
	}
	show := 1 + rng.IntN(5)
	if sp == 1 {
		show = 0
	}
	fr := pick(rng, obFansRanges)
	dur := 10 + rng.IntN(50)
	g.rec.Context = OBObject{
		{"product", product}, {"industry_main", ind.name}, {"industry_sub", ind.sub},
		{"is_verified", orNull(true)}, {"verification_type", orNull("企业认证")},
		{"fans_user_num", orNull(fr.lo + rng.IntN(fr.hi-fr.lo))}, {"fans_user_num_op_range", orNull(fr.name)},
		{"caption", orNull(product + "，" + pick(rng, obPhrases) + ind.sub)}, {"photo_type", orNull("VIDEO")},
		{"duration", orNull(dur)}, {"show_cnt", show}, {"play_cnt", orNull(g.count(50000))},
		{"upload_timestamp", orNull(obTime(t - rng.Int64N(30*86400)).Format(time.DateTime))},
		{"complete_play_cnt", orNull(g.count(5000))}, {"like_cnt", orNull(g.count(300))},
		{"comment_cnt", orNull(g.count(30))}, {"follow_cnt", orNull(g.count(10))}, {"share_cnt", orNull(g.count(20))},
		{"download_cnt", orNull(g.count(5))}, {"collect_cnt", orNull(g.count(20))}, {"report_cnt", orNull(rng.IntN(3))},
		{"reduce_similar_cnt", orNull(rng.IntN(5))}, {"ocr_text", orNull(product + " " + ind.sub)},
		{"asr_text", orNull("点击下方链接了解" + product)},
	}
	complete := rng.IntN(4) == 0
	ws := 1 + rng.IntN(dur)
	if complete {
		ws = dur
	}
	acts := []OBObject{act("watch", "is_complete_play", complete, "watch_seconds", ws)}
	if sp == 0 {
		if g.pos("ad_liked") {
			acts = append(acts, act("like", "like_cnt", 1))
		}
		if g.pos("ad_commented") {
			acts = append(acts, act("comment"))
		}
		if rng.IntN(200) == 0 {
			acts = append(acts, act("share", "share_cnt", 1))
		}
		if g.pos("ad_activated") {
			acts = append(acts, act("conversion", "conversion_cnt", 1), act("activation", "activation_cnt", 1))
		} else if rng.IntN(25) == 0 {
			acts = append(acts, act("activation", "activation_cnt", 0)) // a negative despite the act
		}
		if g.pos("ad_form_submitted") {
			acts = append(acts, act("submit", "form_submit_total_cnt", 1))
		}
	}
	g.rec.Actions = acts
}

func (g *obGen) shop() {
	rng := g.rng
	c := obShopCats[weighted(rng, g.shopW)]
	if g.habit {
		for _, x := range obShopCats {
			if x.l1 == g.u.Habit.Value {
				c = x
			}
		}
	}
	title := pick(rng, c.titles)
	id := fmt.Sprintf("1%011d", rng.Int64N(1e11))
	var desc any
	if rng.IntN(2) == 0 {
		desc = title + "，" + pick(rng, []string{"品质保证", "限时包邮", "七天无理由退换"})
	}
	buyers := g.count(3000)
	g.rec.Context = OBObject{
		{"product_source", pick(rng, []string{"直播间", "短视频", "商城搜索", "商城推荐"})}, {"product_id", id},
		{"item_title", title}, {"external_item_title", title}, {"item_desc", desc},
		{"item_main_image_url", "https://example.invalid/img/" + id + ".jpg"}, {"item_price", g.price()},
		{"category_level1_name", c.l1}, {"category_level2_name", c.l2}, {"category_level3_name", c.l3},
		{"industry_level1_name", c.i1}, {"industry_level2_name", c.i2}, {"industry_level3_name", c.i3},
		{"item_num_180d_sales", buyers * (1 + rng.IntN(3))}, {"item_num_good_assess", buyers / (2 + rng.IntN(20))},
		{"item_num_180d_rebuyer", buyers / (5 + rng.IntN(100))}, {"item_num_180d_buyer", buyers},
		{"item_num_180d_cart", buyers * (1 + rng.IntN(4))}, {"pay_item_qty", 1 + rng.IntN(2)},
	}
	paid := g.pos("shop_order_success")
	cart := false
	if paid && rng.IntN(10) < 7 {
		cart = true
		g.rec.Labels = append(g.rec.Labels, "shop_added_to_cart")
	} else {
		cart = g.pos("shop_added_to_cart")
	}
	g.rec.Actions = []OBObject{act("cart", "is_add_to_cart", cart), act("purchase", "is_pay", paid)}
}

func (g *obGen) search() {
	rng := g.rng
	topic := obVideoCommonTopics[rng.IntN(len(obVideoCommonTopics))]
	acts := []OBObject{act("search", "keyword", topic+pick(rng, []string{"教程", "推荐", "攻略", "视频", "好物"}), "query_category", topic),
		act("show", "show_cnt", 1+rng.IntN(20))}
	if rng.IntN(2) == 0 {
		acts = append(acts, act("click", "click_cnt", 1+rng.IntN(3)))
	}
	g.rec.Actions = acts
}

func (g *obGen) service(t int64) {
	rng := g.rng
	c := pick(rng, obShopCats)
	title := pick(rng, c.titles)
	ticket := pick(rng, obTickets)
	g.rec.Context = OBObject{
		{"ticket_category", ticket}, {"product_name", title}, {"product_category_info", c.l1 + "/" + c.l2 + "/" + c.l3},
		{"item_price", g.price()}, {"item_qty", 1 + rng.IntN(2)}, {"express_fee", pick(rng, []float64{0.0, 6.0, 10.0})},
		{"pay_order_time", obTime(t - 3600 - rng.Int64N(7*86400)).Format(time.DateTime)},
	}
	turns := []OBObject{
		{{"role", "user"}, {"content", "你好，我想咨询一下" + ticket + "的问题"}},
		{{"role", "assistant"}, {"content", "亲，您好，请问有什么可以帮您？"}},
		{{"role", "user"}, {"content", "我买的" + title + pick(rng, []string{"什么时候发货", "可以退吗", "有点问题", "能开发票吗"})}},
		{{"role", "assistant"}, {"content", "亲，已为您查询，请您稍等。"}},
		{{"role", "user"}, {"content", pick(rng, []string{"好的谢谢", "那我再等等吧", "麻烦尽快处理", "行，辛苦了"})}},
	}
	acts := []OBObject{act("dialogue", "content", turns)}
	if rng.IntN(3) == 0 {
		acts = append(acts, act("purchase", "paid", rng.IntN(2) == 0))
	}
	g.rec.Actions = acts
}
