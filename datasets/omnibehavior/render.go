package omnibehavior

import (
	"github.com/memharness/memharness/internal/pyfmt"
	"math"
	"strconv"
	"strings"

	"github.com/memharness/memharness/llm/tokens"
)

// Text limits of the reference renderer, in code points.
const (
	longTextLimit  = 10000 // OCR, ASR, item descriptions
	adCaptionLimit = 500
)

// Fixed sentences of the renderer.
const (
	emptyResult     = "仅浏览未进行其他操作"
	noKeywordSearch = "用户进行了搜索。"
)

// getNum reads a numeric member, treating null and absence alike (the
// reference would raise on null; the loader is null-tolerant).
func getNum(f Fields, key string) (num, bool) { return numOf(f.V(key)) }

// positive reports a numeric member > 0.
func positive(f Fields, key string) (num, bool) {
	n, ok := getNum(f, key)
	if !ok || n.float() <= 0 {
		return num{}, false
	}
	return n, true
}

// wan is the reference's 万 formatting: at or above 10000 it renders
// f"{n/10000:.1f}万" followed by suffix (the text that follows 万 in that
// branch of the reference), below it str(n) alone (callers add their own
// text for that branch).
func wan(n num, suffix string) string {
	if n.float() >= 10000 {
		return fixed(n.float()/10000, 1) + "万" + suffix
	}
	return n.String()
}

// sentence joins clauses with 。 and closes with 。 (or returns empty).
func sentence(parts []string, empty string) string {
	if len(parts) == 0 {
		return empty
	}
	return strings.Join(parts, "。") + "。"
}

// ContextText renders what the user faced, as the reference's
// format_action_context does for the record's (canonical) scene.
func ContextText(r *Record) string {
	c := r.Context
	switch r.Scene {
	case SceneVideo:
		return videoContext(c)
	case SceneShop:
		return shopContext(c)
	case SceneAd:
		return adContext(c)
	case SceneLive:
		return liveContext(c)
	case SceneSearch:
		return searchContext(r, true)
	case SceneCustomerService:
		return serviceContext(c)
	case SceneMovie:
		return "这个电影名称为" + pyStr(c.V("movie_title")) + ", 上映于" + pyStr(c.V("release_year")) +
			", 它的类型是" + pyStr(c.V("genres"))
	}
	if c.Empty() {
		return "{}"
	}
	return pyStr(c.Object())
}

// TargetContext renders the context of a record that is being predicted.
// It equals ContextText except for search records, whose "context" is the
// keyword the user typed, i.e. the search_keyword answer: the reference
// never shows it (its keyword prompt omits the scene), and neither do we.
func TargetContext(r *Record) string {
	if r.Scene == SceneSearch {
		return searchContext(r, false)
	}
	return ContextText(r)
}

func durationClause(prefix string, d num) string {
	m, s := d.floorDiv(60), d.mod(60)
	if m.float() > 0 {
		return prefix + m.String() + " 分 " + s.String() + " 秒"
	}
	return prefix + s.String() + " 秒"
}

func longText(prefix string, v Value, limit int, ellipsis string) string {
	s, cut := runePrefix(pyStr(v), limit)
	if cut {
		return prefix + s + ellipsis
	}
	return prefix + s
}

func videoContext(c Fields) string {
	var parts []string
	if cap := c.V("caption"); truthy(cap) {
		parts = append(parts, "这是一个标题为《"+pyStr(cap)+"》的视频")
	} else {
		parts = append(parts, "这是一个视频")
	}
	verified, vtype := c.V("is_verified"), c.V("verification_type")
	if fans, ok := positive(c, "fans_user_num"); ok {
		info := "作者拥有 " + wan(fans, "") + " 粉丝"
		switch {
		case truthy(verified) && truthy(vtype):
			info += "，并且通过了" + pyStr(vtype) + "认证"
		case truthy(verified):
			info += "，并且已通过平台认证"
		}
		parts = append(parts, info)
	} else if truthy(verified) {
		if truthy(vtype) {
			parts = append(parts, "作者已通过"+pyStr(vtype)+"认证")
		} else {
			parts = append(parts, "作者已通过平台认证")
		}
	}
	if d, ok := secondsOf(c.V("duration")); ok && !d.isZero() {
		parts = append(parts, durationClause("视频时长为 ", d))
	}
	var pop []string
	for _, k := range [...]struct{ key, unit string }{
		{"show_cnt", "次曝光"}, {"play_cnt", "次播放"}, {"complete_play_cnt", "次完整播放"},
		{"like_cnt", "个赞"}, {"comment_cnt", "条评论"}, {"share_cnt", "次分享"},
		{"collect_cnt", "次收藏"}, {"download_cnt", "次下载"}, {"follow_cnt", "次关注"},
	} {
		if n, ok := positive(c, k.key); ok {
			pop = append(pop, n.String()+k.unit)
		}
	}
	if len(pop) > 0 {
		parts = append(parts, "该视频目前收获了 "+strings.Join(pop, "、"))
	}
	if v := c.V("ocr"); truthy(v) {
		parts = append(parts, longText("视频画面中识别到的文字内容为：", v, longTextLimit, "..."))
	}
	if v := c.V("asr"); truthy(v) {
		parts = append(parts, longText("视频中的语音内容为：", v, longTextLimit, "..."))
	}
	if v := c.V("upload_timestamp"); truthy(v) {
		parts = append(parts, "发布时间是 "+pyStr(v))
	}
	return sentence(parts, "视频信息缺失。")
}

func joinTruthy(c Fields, keys ...string) []string {
	var out []string
	for _, k := range keys {
		if v := c.V(k); truthy(v) {
			out = append(out, pyStr(v))
		}
	}
	return out
}

func shopContext(c Fields) string {
	var parts []string
	if v := c.V("item_title"); truthy(v) {
		parts = append(parts, "这是一件商品，名称为"+pyStr(v))
	} else {
		parts = append(parts, "这是一件商品")
	}
	if v := c.V("item_desc"); truthy(v) {
		parts = append(parts, longText("商品描述：", v, longTextLimit, "..."))
	}
	if v := c.V("product_source"); truthy(v) {
		parts = append(parts, "商品来自"+pyStr(v))
	}
	if p, ok := getNum(c, "item_price"); ok && !p.isZero() {
		if p.float() > 0 {
			parts = append(parts, "售价为 "+p.String()+" 元")
		} else {
			parts = append(parts, "售价未知")
		}
	}
	if cat := joinTruthy(c, "category_level1_name", "category_level2_name", "category_level3_name"); len(cat) > 0 {
		parts = append(parts, "商品具体类别为："+strings.Join(cat, "，"))
	}
	if ind := joinTruthy(c, "industry_level1_name", "industry_level2_name", "industry_level3_name"); len(ind) > 0 {
		parts = append(parts, "所属行业为："+strings.Join(ind, "，"))
	}
	var sales []string
	if n, ok := positive(c, "item_num_180d_sales"); ok {
		if n.float() >= 10000 {
			sales = append(sales, "近180天已售出 "+wan(n, "件"))
		} else {
			sales = append(sales, "近180天已售出 "+n.String()+" 件")
		}
	}
	for _, k := range [...]struct{ key, unit string }{
		{"item_num_good_assess", "条好评"}, {"item_num_180d_buyer", "人购买"}, {"item_num_180d_rebuyer", "人复购"},
	} {
		if n, ok := positive(c, k.key); ok {
			sales = append(sales, wan(n, "")+k.unit)
		}
	}
	if len(sales) > 0 {
		parts = append(parts, "该商品"+strings.Join(sales, "、"))
	}
	if n, ok := positive(c, "item_num_180d_cart"); ok {
		if n.float() >= 10000 {
			parts = append(parts, "近180天有 "+wan(n, " 人加入购物车"))
		} else {
			parts = append(parts, "近180天有 "+n.String()+" 人加入购物车")
		}
	}
	return sentence(parts, "商品信息缺失。")
}

func adContext(c Fields) string {
	var parts []string
	if v := c.V("product"); truthy(v) {
		info := "这是一条推广" + pyStr(v) + "的广告"
		if main := c.V("industry_main"); truthy(main) {
			info += "，属于" + pyStr(main)
			if sub := c.V("industry_sub"); truthy(sub) && !sameValue(sub, main) {
				info += "行业中的" + pyStr(sub) + "品类"
			} else {
				info += "行业"
			}
		}
		parts = append(parts, info)
	} else {
		parts = append(parts, "这是一条广告")
	}
	if truthy(c.V("is_verified")) {
		if vt := c.V("verification_type"); truthy(vt) {
			parts = append(parts, "广告主已认证，认证类型为"+pyStr(vt))
		} else {
			parts = append(parts, "广告主已认证")
		}
	}
	if v := c.V("fans_user_num"); truthy(v) {
		parts = append(parts, "广告主粉丝数为 "+pyStr(v))
	} else if v := c.V("fans_user_num_op_range"); truthy(v) {
		parts = append(parts, "广告主粉丝数范围为"+pyStr(v))
	}
	if v := c.V("caption"); truthy(v) {
		parts = append(parts, longText("广告标题为：", v, adCaptionLimit, "..."))
	}
	if v := c.V("photo_type"); truthy(v) {
		parts = append(parts, "广告类型为"+pyStr(v))
	}
	if d, ok := secondsOf(c.V("duration")); ok && !d.isZero() {
		if d.float() >= 60 {
			m, s := d.floorDiv(60), d.mod(60)
			if s.float() > 0 {
				parts = append(parts, "广告时长为 "+m.String()+" 分 "+s.String()+" 秒")
			} else {
				parts = append(parts, "广告时长为 "+m.String()+" 分钟")
			}
		} else {
			parts = append(parts, "广告时长为 "+d.String()+" 秒")
		}
	}
	if v := c.V("upload_timestamp"); truthy(v) {
		parts = append(parts, "广告上传时间为 "+pyStr(v))
	}
	if n, ok := positive(c, "show_cnt"); ok {
		parts = append(parts, "该广告已经向用户曝光过 "+n.String()+" 次")
	}
	if n, ok := positive(c, "play_cnt"); ok {
		parts = append(parts, "广告播放次数为 "+n.String())
	}
	if n, ok := positive(c, "complete_play_cnt"); ok {
		parts = append(parts, "广告被完整播放 "+n.String()+" 次")
	}
	var inter []string
	for _, k := range [...]struct{ key, label string }{
		{"like_cnt", "获得点赞 "}, {"comment_cnt", "获得评论 "}, {"share_cnt", "被分享 "},
		{"collect_cnt", "被收藏 "}, {"download_cnt", "被下载 "}, {"follow_cnt", "被关注 "},
	} {
		if n, ok := positive(c, k.key); ok {
			inter = append(inter, k.label+n.String()+" 次")
		}
	}
	if len(inter) > 0 {
		parts = append(parts, "广告互动数据："+strings.Join(inter, ", "))
	}
	var neg []string
	if n, ok := positive(c, "report_cnt"); ok {
		neg = append(neg, "被举报 "+n.String()+" 次")
	}
	if n, ok := positive(c, "reduce_similar_cnt"); ok {
		neg = append(neg, "减少类似推荐 "+n.String()+" 次")
	}
	if len(neg) > 0 {
		parts = append(parts, "广告负面反馈："+strings.Join(neg, ", "))
	}
	if v := c.V("ocr_text"); truthy(v) {
		parts = append(parts, longText("广告画面中的文字内容为：", v, longTextLimit, ""))
	}
	if v := c.V("asr_text"); truthy(v) {
		parts = append(parts, longText("广告中的语音内容为：", v, longTextLimit, ""))
	}
	return sentence(parts, "广告信息缺失。")
}

// sameValue is Python's == for two decoded JSON scalars.
func sameValue(a, b Value) bool {
	if na, ok := numOf(a); ok {
		nb, ok := numOf(b)
		return ok && na.float() == nb.float()
	}
	return a.Kind() == b.Kind() && a.Text() == b.Text() && a.Len() == 0 && b.Len() == 0
}

func liveContext(c Fields) string {
	var parts []string
	intro := "这是一个直播间"
	if v := c.V("live_title"); truthy(v) {
		intro = "这是一个标题为" + pyStr(v) + "的直播间"
	}
	if v := c.V("live_category"); truthy(v) {
		intro += "，直播类型是" + pyStr(v) + " 场景"
	}
	if v := c.V("live_game_name"); truthy(v) {
		intro += "，正在直播《" + pyStr(v) + "》"
	}
	if v, ok := c.Get("is_shop_live"); ok {
		if truthy(v) {
			intro += "，主播正在进行带货直播"
		} else {
			intro += "，这是一场娱乐性的非带货直播"
		}
	}
	parts = append(parts, intro)
	var pop []string
	if n, ok := getNum(c, "live_total_user_cnt"); ok && !n.isZero() {
		pop = append(pop, "累计 "+wan(n, "")+" 人次观看")
	}
	if n, ok := getNum(c, "live_total_view_cnt"); ok && !n.isZero() {
		if n.float() >= 10000 {
			pop = append(pop, "总观看量达到 "+wan(n, ""))
		} else {
			pop = append(pop, "总观看量 "+n.String())
		}
	}
	if len(pop) > 0 {
		parts = append(parts, "该直播已有 "+strings.Join(pop, "、"))
	}
	if n, ok := getNum(c, "live_total_view_duration"); ok && !n.isZero() {
		hours := n.float() / 3600
		switch {
		case hours >= 10000:
			parts = append(parts, "累计观看时长达到 "+fixed(hours/10000, 1)+"万 小时")
		case hours >= 1:
			parts = append(parts, "累计观看时长 "+fixed(hours, 1)+" 小时")
		default:
			parts = append(parts, "累计观看时长 "+fixed(n.float()/60, 0)+" 分钟")
		}
	}
	if v := c.V("live_cover_content"); truthy(v) {
		parts = append(parts, "直播封面的内容是："+pyStr(v))
	}
	var inter []string
	if n, ok := positive(c, "live_like_cnt"); ok {
		inter = append(inter, wan(n, "")+"个赞")
	}
	if n, ok := positive(c, "live_comment_cnt"); ok {
		inter = append(inter, wan(n, "")+"条评论")
	}
	if len(inter) > 0 {
		parts = append(parts, "直播间目前有 "+strings.Join(inter, "、"))
	}
	if items := c.V("items"); items.Kind() == KindArray && items.Len() > 0 {
		var details []string
		for _, it := range items.Elems() {
			f := it.Val.Fields()
			title, price := f.V("title"), f.V("price")
			switch {
			case truthy(title) && truthy(price):
				details = append(details, pyStr(title)+"售价 "+pyStr(price)+" 元")
			case truthy(title):
				details = append(details, pyStr(title))
			}
		}
		switch len(details) {
		case 0:
		case 1:
			parts = append(parts, "主播正在推荐 1 件商品："+details[0])
		default:
			parts = append(parts, "主播正在推荐 "+strconv.Itoa(len(details))+" 件商品："+strings.Join(details, ", "))
		}
	}
	return sentence(parts, "直播信息缺失。")
}

// searchKeyword returns the keyword and query category of a search record:
// from its first search act, else from its context.
func searchKeyword(r *Record) (keyword, category Value) {
	if a, ok := r.firstAct("search"); ok {
		keyword, category = a.Fields.V("keyword"), a.Fields.V("query_category")
	}
	if !truthy(keyword) {
		if v, ok := r.Context.Get("keyword"); ok {
			keyword = v
		}
	}
	if !truthy(category) {
		if v, ok := r.Context.Get("query_category"); ok {
			category = v
		}
	}
	return keyword, category
}

func searchContext(r *Record, showKeyword bool) string {
	kw, cat := searchKeyword(r)
	if !showKeyword || !truthy(kw) {
		return noKeywordSearch
	}
	info := "用户在搜索框中输入了关键词 " + pyStr(kw)
	if truthy(cat) {
		switch pyStr(cat) {
		case "查询型":
			info += "，希望查找相关信息"
		case "浏览型":
			info += "，想要浏览相关内容"
		default:
			info += "，搜索意图是" + pyStr(cat)
		}
	}
	return info + "。"
}

func serviceContext(c Fields) string {
	var parts []string
	if v := c.V("ticket_category"); truthy(v) {
		parts = append(parts, "这是一次"+pyStr(v)+"类型的咨询")
	} else {
		parts = append(parts, "这是一次客服对话")
	}
	var order []string
	if v := c.V("product_name"); truthy(v) {
		order = append(order, "涉及商品为《"+pyStr(v)+"》")
	}
	if v := c.V("product_category_info"); truthy(v) {
		order = append(order, "商品类别是"+pyStr(v))
	}
	var price []string
	if v := c.V("item_price"); truthy(v) {
		price = append(price, "单价 "+pyStr(v)+" 元")
	}
	if v := c.V("item_qty"); truthy(v) {
		if n, ok := numOf(v); ok && (n.isInt || n.f == math.Trunc(n.f)) {
			price = append(price, "购买数量 "+strconv.FormatInt(n.toInt(), 10)+" 件")
		} else {
			price = append(price, "购买数量 "+pyStr(v)+" 件")
		}
	}
	if v := c.V("express_fee"); truthy(v) {
		if n, ok := numOf(v); ok && n.float() > 0 {
			price = append(price, "运费 "+pyfmt.Float(n.float())+" 元")
		}
	}
	if len(price) > 0 {
		order = append(order, strings.Join(price, "，"))
	}
	if len(order) > 0 {
		parts = append(parts, strings.Join(order, "；"))
	}
	if v := c.V("pay_order_time"); truthy(v) {
		parts = append(parts, "该订单的下单时间是 "+pyStr(v))
	}
	return sentence(parts, "客服对话信息缺失。")
}

// ResultText renders what the user did, as the reference's
// format_action_result does: clauses joined with "，", or a fixed sentence
// when nothing is rendered.
func ResultText(r *Record) string {
	var res []string
	switch r.Scene {
	case SceneVideo:
		res = videoResult(r.Actions)
	case SceneMovie:
		for _, a := range r.Actions {
			res = append(res, "用户对此电影打分是 "+pyStr(a.Fields.V("rating")))
		}
	case SceneShop:
		for _, a := range r.Actions {
			switch a.Type {
			case "cart":
				if truthy(a.Fields.V("is_add_to_cart")) {
					res = append(res, "把商品加入了购物车")
				} else {
					res = append(res, "浏览了商品但未加入购物车")
				}
			case "purchase":
				if paid(a) {
					res = append(res, "成功下单购买")
				} else {
					res = append(res, "未购买该商品")
				}
			}
		}
	case SceneAd:
		res = adResult(r.Actions)
	case SceneLive:
		res = liveResult(r.Actions)
	case SceneSearch:
		for _, a := range r.Actions {
			switch a.Type {
			case "show":
				if v := a.Fields.V("show_cnt"); truthy(v) {
					res = append(res, "系统展示了 "+pyStr(v)+" 条搜索结果")
				}
			case "click":
				if v := a.Fields.V("click_cnt"); truthy(v) {
					res = append(res, "点击了搜索结果 "+pyStr(v)+" 次")
				} else {
					res = append(res, "点击了搜索结果")
				}
			}
		}
	case SceneCustomerService:
		for _, a := range r.Actions {
			switch a.Type {
			case "dialogue":
				if d := a.Fields.V("content"); truthy(d) && d.Kind() == KindArray {
					users, agents := 0, 0
					for _, m := range d.Elems() {
						switch pyStr(m.Val.Fields().V("role")) {
						case "user":
							users++
						case "assistant":
							agents++
						}
					}
					res = append(res, "与客服进行了对话（用户发送 "+strconv.Itoa(users)+" 条消息，客服回复 "+strconv.Itoa(agents)+" 条）")
				}
			case "purchase":
				if truthy(a.Fields.V("paid")) {
					res = append(res, "最终完成了支付")
				} else {
					res = append(res, "未完成支付")
				}
			}
		}
	default:
		for _, a := range r.Actions {
			switch a.Type {
			case "watch":
				if a.Fields.Has("play_duration") || a.Fields.Has("watch_seconds") {
					res = append(res, "观看了内容")
				}
			case "like":
				res = append(res, "点赞")
			case "comment":
				res = append(res, "评论")
			case "share":
				res = append(res, "分享")
			case "collect":
				res = append(res, "收藏")
			case "download":
				res = append(res, "下载")
			case "purchase":
				res = append(res, "购买")
			case "click":
				res = append(res, "点击")
			}
		}
	}
	if len(res) == 0 {
		return emptyResult
	}
	return strings.Join(res, "，")
}

// paid reports a purchase act with any of order_success, paid or is_pay
// truthy.
func paid(a Act) bool {
	return truthy(a.Fields.V("order_success")) || truthy(a.Fields.V("paid")) || truthy(a.Fields.V("is_pay"))
}

// minutesSeconds renders a watch time of at least a minute.
func minutesSeconds(prefix string, w num) string {
	m, s := w.floorDiv(60).toInt(), w.mod(60).toInt()
	if s > 0 {
		return prefix + strconv.FormatInt(m, 10) + " 分 " + strconv.FormatInt(s, 10) + " 秒"
	}
	return prefix + strconv.FormatInt(m, 10) + " 分钟"
}

func videoResult(acts []Act) []string {
	var res []string
	for _, a := range acts {
		f := a.Fields
		switch a.Type {
		case "watch":
			var details []string
			if pd, ok := f.Get("play_duration"); ok {
				if pd.Kind() == KindString {
					details = append(details, "观看了 "+pd.Text())
				} else if w, ok := numOf(pd); ok {
					switch {
					case w.float() >= 60:
						details = append(details, minutesSeconds("观看了 ", w))
					case w.float() == float64(w.toInt()):
						details = append(details, "观看了 "+strconv.FormatInt(w.toInt(), 10)+" 秒")
					default:
						details = append(details, "观看了 "+fixed(w.float(), 1)+" 秒")
					}
				}
			} else if ws, ok := f.Get("watch_seconds"); ok {
				if w, ok := secondsOf(ws); ok && w.float() >= 60 {
					res = append(res, minutesSeconds("观看了 ", w))
				}
			}
			var feats []string
			if v := f.V("played_loop_cnt"); truthy(v) {
				feats = append(feats, "循环播放了 "+pyStr(v))
			}
			if truthy(f.V("is_fast_forward_play")) {
				feats = append(feats, "使用了快进播放操作")
			}
			if truthy(f.V("is_backward_play")) {
				feats = append(feats, "进行了回退观看操作")
			}
			if truthy(f.V("is_enlarge_play")) {
				feats = append(feats, "放大了视频画面操作")
			}
			if truthy(f.V("completed")) || truthy(f.V("is_complete_play")) {
				feats = append(feats, "完整看完了整个视频")
			}
			if len(feats) > 0 {
				details = append(details, strings.Join(feats, "，"))
			}
			if len(details) > 0 {
				res = append(res, strings.Join(details, "、"))
			}
		case "like":
			res = append(res, "对视频进行点赞操作")
		case "comment":
			if v := f.V("comment_detail_list"); truthy(v) {
				res = append(res, "发表了评论："+pyStr(v))
			} else {
				res = append(res, "发表了评论")
			}
			if v := f.V("comment_stay_duration"); truthy(v) {
				res = append(res, "在评论区停留了 "+pyStr(v))
			}
			if truthy(f.V("is_at_friend_in_comment")) {
				res = append(res, "在评论区提及了好友")
			}
		case "share":
			if v := f.V("share_cnt"); truthy(v) {
				res = append(res, "分享给朋友，成功分享了"+pyStr(v)+"次")
			} else {
				res = append(res, "分享了视频")
			}
		case "collect":
			if v := f.V("collect_cnt"); truthy(v) {
				res = append(res, "收藏了该视频，成功收藏了"+pyStr(v)+"次")
			} else {
				res = append(res, "收藏了该视频")
			}
		case "download":
			if v := f.V("download_cnt"); truthy(v) {
				res = append(res, "下载了该视频，成功下载了"+pyStr(v)+"次")
			} else {
				res = append(res, "下载了该视频")
			}
		case "follow":
			res = append(res, "关注了视频作者")
		case "unfollow":
			if truthy(f.V("is_unfollow_action")) {
				res = append(res, "取消关注了视频作者")
			}
		case "dislike":
			if truthy(f.V("reduce_similar_cnt")) || truthy(f.V("reduce_simliar_cnt")) {
				res = append(res, "选择了不感兴趣")
			}
		case "report":
			if truthy(f.V("report_cnt")) {
				res = append(res, "进行了举报")
			}
		}
	}
	return res
}

// adWatchSeconds is the reference's ad watch time of one watch act:
// watch_seconds when present, else play_duration, else 0.
func adWatchSeconds(f Fields) num {
	if v, ok := f.Get("watch_seconds"); ok {
		if n, ok := secondsOf(v); ok {
			return n
		}
		return intNum(0)
	}
	if v, ok := f.Get("play_duration"); ok {
		if n, ok := secondsOf(v); ok {
			return floatNum(n.float())
		}
	}
	return intNum(0)
}

func adResult(acts []Act) []string {
	var res []string
	for _, a := range acts {
		f := a.Fields
		switch a.Type {
		case "watch":
			var feats []string
			if w := adWatchSeconds(f); w.float() > 0 {
				feats = append(feats, "观看了 "+fixed(w.float(), 1)+" 秒")
			}
			if v := f.V("played_loop_cnt"); truthy(v) {
				feats = append(feats, "循环播放了 "+pyStr(v)+" 次")
			}
			if truthy(f.V("is_complete_play")) {
				feats = append(feats, "看完了整个广告")
			}
			if len(feats) > 0 {
				res = append(res, strings.Join(feats, "、"))
			}
		case "like":
			if v := f.V("like_cnt"); truthy(v) {
				res = append(res, "为广告点赞 "+pyStr(v)+" 次")
			} else {
				res = append(res, "为广告点赞")
			}
		case "comment":
			res = append(res, "在广告下发表了评论")
		case "share":
			if v := f.V("share_cnt"); truthy(v) {
				res = append(res, "分享了广告 "+pyStr(v)+" 次")
			} else {
				res = append(res, "分享了广告")
			}
		case "conversion":
			if v := f.V("conversion_cnt"); truthy(v) {
				res = append(res, "点击了广告产生转化，共 "+pyStr(v)+" 次")
			}
		case "activation":
			if v := f.V("activation_cnt"); truthy(v) {
				res = append(res, "激活了应用或服务，共 "+pyStr(v)+" 次")
			}
		case "purchase":
			var info []string
			if v := f.V("pay_cnt"); truthy(v) {
				info = append(info, "支付了 "+pyStr(v)+" 次")
			}
			if v := f.V("pay_purchase_amt"); truthy(v) {
				info = append(info, "支付金额 "+pyStr(v)+" 元")
			}
			if len(info) > 0 {
				res = append(res, "通过广告"+strings.Join(info, "、"))
			}
		case "submit":
			if v := f.V("form_submit_total_cnt"); truthy(v) {
				res = append(res, "提交了表单 "+pyStr(v)+" 次")
			}
		case "follow":
			res = append(res, "关注了广告主")
		case "unfollow":
			res = append(res, "取消关注了广告主")
		case "dislike":
			if truthy(f.V("report_cnt")) {
				res = append(res, "举报了广告")
			}
		}
	}
	return res
}

// liveWatchSeconds is the reference's live stay time of one watch act.
func liveWatchSeconds(f Fields) float64 {
	if n, ok := secondsOf(f.V("play_duration")); ok {
		return n.float()
	}
	return 0
}

func liveResult(acts []Act) []string {
	var res []string
	for _, a := range acts {
		f := a.Fields
		switch a.Type {
		case "watch":
			var info []string
			if w := liveWatchSeconds(f); w > 0 {
				if w >= 60 {
					info = append(info, minutesSeconds("在直播间停留了 ", floatNum(w)))
				} else {
					info = append(info, "在直播间停留了 "+strconv.FormatInt(int64(w), 10)+" 秒")
				}
			}
			if v := f.V("play_count"); truthy(v) {
				info = append(info, "观看了 "+pyStr(v)+" 次")
			}
			if len(info) > 0 {
				res = append(res, strings.Join(info, "，"))
			}
		case "like":
			if v := f.V("like_cnt"); truthy(v) {
				if n, ok := numOf(v); ok && n.float() >= 10000 {
					res = append(res, "为主播点赞 "+wan(n, " ")+"次")
				} else {
					res = append(res, "为主播点赞 "+pyStr(v)+" 次")
				}
			} else {
				res = append(res, "为主播点赞")
			}
		case "comment":
			var info []string
			if v := f.V("comment_cnt"); truthy(v) {
				info = append(info, "发送了 "+pyStr(v)+" 条弹幕")
			}
			if v := f.V("comment_content"); truthy(v) && v.Kind() == KindArray {
				quoted := make([]string, min(3, v.Len()))
				for i := range quoted {
					quoted[i] = "「" + pyStr(v.Index(i)) + "」"
				}
				text := strings.Join(quoted, "、")
				if v.Len() > 3 {
					info = append(info, "评论内容包括："+text+" 等")
				} else {
					info = append(info, "评论内容："+text)
				}
			}
			if len(info) > 0 {
				res = append(res, "在直播间"+strings.Join(info, "，"))
			} else {
				res = append(res, "在直播间发送了弹幕")
			}
		case "send_gift":
			if v := f.V("gift_amount"); truthy(v) {
				res = append(res, "给主播送了价值 "+pyStr(v)+" 元的礼物")
			}
		case "follow":
			if truthy(f.V("is_follow_action")) {
				res = append(res, "关注了主播")
			}
		case "unfollow":
			if truthy(f.V("is_unfollow_action")) {
				res = append(res, "取消关注了主播")
			}
		case "share":
			if v := f.V("share_cnt"); truthy(v) {
				res = append(res, "分享了直播间 "+pyStr(v)+" 次")
			}
		case "dislike":
			var info []string
			if truthy(f.V("report_cnt")) {
				info = append(info, "举报了直播间")
			}
			if truthy(f.V("reduce_simliar_cnt")) {
				info = append(info, "选择了不感兴趣")
			}
			if len(info) > 0 {
				res = append(res, strings.Join(info, "、"))
			}
		case "click_cart":
			if truthy(f.V("is_click_cart_action")) {
				title, price := f.V("item_title"), f.V("item_price")
				switch {
				case truthy(title) && truthy(price):
					res = append(res, "把商品 "+pyStr(title)+"（售价"+pyStr(price)+"元）加入了购物车")
				case truthy(title):
					res = append(res, "把商品 "+pyStr(title)+" 加入了购物车")
				default:
					res = append(res, "点击了购物车")
				}
			}
		case "join_group":
			if v := f.V("join_fans_group_cnt"); truthy(v) {
				res = append(res, "加入了粉丝团（"+pyStr(v)+"次）")
			}
		}
	}
	return res
}

// RecordBlock is the text the reference's history budget counts for one
// record: 【行为】时间：{ts}\n  场景：{type}\n  详情：{ctx}\n  反应：{res}\n, with
// the raw scene string.
func RecordBlock(r *Record) string {
	return "【行为】时间：" + r.Timestamp + "\n  场景：" + r.Type + "\n  详情：" + ContextText(r) +
		"\n  反应：" + ResultText(r) + "\n"
}

// RecordTokens estimates the record's history cost with the reference's
// fallback estimator (tokens.Approx).
func RecordTokens(r *Record) int { return tokens.Approx{}.Count(RecordBlock(r)) }
