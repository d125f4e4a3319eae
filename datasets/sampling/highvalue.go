package sampling

// Canonical scene names (the Chinese forms the reference code keys on).
const (
	SceneVideo           = "视频浏览"
	SceneLive            = "直播间"
	SceneShop            = "商城购物"
	SceneAd              = "广告推荐"
	SceneCustomerService = "电商客服对话"
	SceneSearch          = "搜索行为"
	SceneMovie           = "电影评分"
)

// HighValueAct reports whether an act type makes a record of the scene
// high-value for the balanced sampler (PraMem's HIGH sets). Scenes without a
// set (search, movie rating, unknown) are never high-value. Customer service
// follows PraMem ({purchase, positive_feedback}); OmniBehavior's own copy
// has only purchase, which gives the same result on real data because no
// positive_feedback act exists there.
func HighValueAct(scene, act string) bool {
	switch scene {
	case SceneVideo:
		return act == "like" || act == "collect" || act == "share" || act == "comment"
	case SceneLive:
		return act == "send_gift" || act == "add_to_cart" || act == "follow"
	case SceneShop:
		return act == "purchase" || act == "order_success" || act == "add_to_cart"
	case SceneAd:
		return act == "conversion" || act == "activation" || act == "purchase" ||
			act == "submit" || act == "click"
	case SceneCustomerService:
		return act == "purchase" || act == "positive_feedback"
	}
	return false
}

// HighValue reports whether any of a record's act types is high-value for
// its scene. Presence is all that counts: a shop record with a purchase act
// whose is_pay is false is still high-value, as in the reference.
func HighValue(scene string, actTypes []string) bool {
	for _, a := range actTypes {
		if HighValueAct(scene, a) {
			return true
		}
	}
	return false
}
