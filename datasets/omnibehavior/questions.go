package omnibehavior

import "strings"

// questionTexts are our own wording of one yes/no (or open) question per
// field: {Chinese, English}.
func questionTexts(field string) (zh, en string) {
	switch field {
	case "video_completed":
		return "该用户会把这个视频从头到尾完整看完吗？", "Will this user watch this video all the way to the end?"
	case "video_liked":
		return "该用户会给这个视频点赞吗？", "Will this user like this video?"
	case "video_commented":
		return "该用户会在这个视频下面留言评论吗？", "Will this user leave a comment under this video?"
	case "video_shared":
		return "该用户会把这个视频转发分享给别人吗？", "Will this user share this video with others?"
	case "video_collected":
		return "该用户会把这个视频加入收藏吗？", "Will this user add this video to their favourites?"
	case "video_followed":
		return "看了这个视频后，该用户会关注它的作者吗？", "After this video, will this user follow its author?"
	case "live_liked":
		return "该用户会在这个直播间给主播点赞吗？", "Will this user tap likes for the streamer in this live room?"
	case "live_commented":
		return "该用户会在这个直播间发弹幕或评论吗？", "Will this user post a bullet comment or message in this live room?"
	case "live_sent_gift":
		return "该用户会在这个直播间给主播送礼物吗？", "Will this user send the streamer a gift in this live room?"
	case "live_followed":
		return "该用户会关注这个直播间的主播吗？", "Will this user follow the streamer of this live room?"
	case "live_shared":
		return "该用户会把这个直播间分享出去吗？", "Will this user share this live room?"
	case "live_clicked_cart":
		return "该用户会在这个带货直播间点开购物车、把商品加进购物车吗？", "Will this user open the cart of this selling live room and add a product to it?"
	case "ad_liked":
		return "该用户会给这条广告点赞吗？", "Will this user like this ad?"
	case "ad_commented":
		return "该用户会在这条广告下面发表评论吗？", "Will this user comment on this ad?"
	case "ad_activated":
		return "假如点开了这条广告，该用户会下载激活或注册它推广的应用或服务吗？", "Supposing the ad is opened, will this user install, activate or sign up for the app or service it promotes?"
	case "ad_form_submitted":
		return "该用户会填写并提交这条广告里的表单吗？", "Will this user fill in and submit the form in this ad?"
	case "shop_added_to_cart":
		return "该用户会把这件商品加入购物车吗？", "Will this user add this product to the cart?"
	case "shop_order_success":
		return "该用户会下单并成功购买这件商品吗？", "Will this user place and pay for an order of this product?"
	case "video_watch_seconds":
		return "该用户会在这个视频上观看多少秒？", "How many seconds will this user watch this video?"
	case "live_watch_seconds":
		return "该用户会在这个直播间停留多少秒？", "How many seconds will this user stay in this live room?"
	case "ad_watch_seconds":
		return "该用户会在这条广告上停留多少秒？", "How many seconds will this user spend on this ad?"
	case "search_keyword":
		return "该用户现在打开搜索框，会输入什么关键词？", "This user now opens the search box: what keyword will they type?"
	case "next_user_message":
		return "在这段客服对话里，该用户接下来最可能说的一句话是什么？", "In this customer-service chat, what is the user most likely to say next?"
	}
	return "", ""
}

// QuestionText is the question asked for a label, in lang ("en" or
// Chinese otherwise). For next_user_message it carries the earlier
// dialogue, or says the user is opening the conversation.
func QuestionText(l Label, lang string) string {
	zh, en := questionTexts(l.Field)
	if zh == "" {
		zh, en = "该用户会这样做吗？（"+l.Field+"）", "Will this user do this? ("+l.Field+")"
	}
	q := zh
	if lang == LangEN {
		q = en
	}
	if l.Field != "next_user_message" {
		return q
	}
	var b strings.Builder
	switch {
	case l.Dialogue == "" && lang == LangEN:
		b.WriteString("The user is about to start the chat: what is their first message?")
	case l.Dialogue == "":
		b.WriteString("该用户即将开始与客服对话，TA最可能说的第一句话是什么？")
	case lang == LangEN:
		b.WriteString(q + "\nDialogue so far:\n" + l.Dialogue)
	default:
		b.WriteString(q + "\n【对话历史记录】\n" + l.Dialogue)
	}
	return b.String()
}
