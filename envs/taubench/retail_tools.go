package taubench

import (
	"sort"
	"strings"
)

// Parameter descriptions are ours; names, types and order follow the
// official schemas.
var (
	pOrderID   = param{name: "order_id", kind: kString, desc: "Order id, starting with '#', e.g. '#W0000000'."}
	pUserID    = param{name: "user_id", kind: kString, desc: "User id, e.g. 'sara_doe_496'."}
	pPaymentID = param{name: "payment_method_id", kind: kString, desc: "Payment method id from the user profile, e.g. 'gift_card_0000000'."}
	pItemIDs   = param{name: "item_ids", kind: kStringList, desc: "Item ids in the order (duplicates allowed)."}
	pNewItems  = param{name: "new_item_ids", kind: kStringList, desc: "New item ids of the same products, position by position."}
	pAddress   = []param{
		{name: "address1", kind: kString, desc: "First address line."},
		{name: "address2", kind: kString, desc: "Second address line, may be empty."},
		{name: "city", kind: kString, desc: "City."},
		{name: "state", kind: kString, desc: "State, e.g. 'CA'."},
		{name: "country", kind: kString, desc: "Country, e.g. 'USA'."},
		{name: "zip", kind: kString, desc: "Zip code."},
	}
)

func retailTools() []*tool {
	return []*tool{
		calculateTool(),
		{name: "cancel_pending_order", desc: "Cancel a pending order and refund its payments (gift cards immediately, other methods in 5-7 business days). Needs explicit user confirmation first. Returns the order.",
			params: []param{pOrderID, {name: "reason", kind: kString, enum: []string{"no longer needed", "ordered by mistake"}, desc: "'no longer needed' or 'ordered by mistake'."}},
			run:    cancelPendingOrder},
		{name: "exchange_delivered_order_items", desc: "Exchange items of a delivered order for other options of the same products (once per order). Needs explicit user confirmation first.",
			params: []param{pOrderID, pItemIDs, pNewItems, pPaymentID},
			run:    exchangeDeliveredOrderItems},
		{name: "find_user_id_by_email", desc: "Find a user id by email; returns an error message when not found.",
			params: []param{{name: "email", kind: kString, desc: "Email address."}},
			run: func(db *DB, a args) string {
				email := strings.ToLower(a.str("email"))
				return findUser(db, func(p *Object) bool { return strings.ToLower(getStr(p, "email")) == email })
			}},
		{name: "find_user_id_by_name_zip", desc: "Find a user id by first name, last name and zip code; use only when the email is unknown.",
			params: []param{{name: "first_name", kind: kString, desc: "First name."}, {name: "last_name", kind: kString, desc: "Last name."}, {name: "zip", kind: kString, desc: "Zip code."}},
			run: func(db *DB, a args) string {
				first, last, zip := strings.ToLower(a.str("first_name")), strings.ToLower(a.str("last_name")), a.str("zip")
				return findUser(db, func(p *Object) bool {
					name := getObj(p, "name")
					return strings.ToLower(getStr(name, "first_name")) == first &&
						strings.ToLower(getStr(name, "last_name")) == last &&
						getStr(getObj(p, "address"), "zip") == zip
				})
			}},
		lookupTool("get_order_details", "Get the status and details of an order.", pOrderID, "orders", "Error: order not found"),
		lookupTool("get_product_details", "Get a product and all its variants (items).",
			param{name: "product_id", kind: kString, desc: "Product id (not an item id)."}, "products", "Error: product not found"),
		lookupTool("get_user_details", "Get a user's profile, including their orders.", pUserID, "users", "Error: user not found"),
		{name: "list_all_product_types", desc: "List every product type's name and product id (50 in the store).",
			run: func(db *DB, _ args) string {
				byName := map[string]string{}
				db.Each("products", func(_ string, p *Object) bool {
					byName[getStr(p, "name")] = getStr(p, "product_id")
					return true
				})
				names := make([]string, 0, len(byName))
				for n := range byName {
					names = append(names, n)
				}
				sort.Strings(names)
				out := NewObject()
				for _, n := range names {
					out.Set(n, byName[n])
				}
				return Dumps(out)
			}},
		{name: "modify_pending_order_address", desc: "Change the shipping address of a pending order. Needs explicit user confirmation first.",
			params: append([]param{pOrderID}, pAddress...),
			run: func(db *DB, a args) string {
				if !db.Has("orders", a.str("order_id")) {
					return "Error: order not found"
				}
				order := db.Mut("orders", a.str("order_id"))
				if getStr(order, "status") != "pending" {
					return "Error: non-pending order cannot be modified"
				}
				order.Set("address", addressFrom(a))
				return Dumps(order)
			}},
		{name: "modify_pending_order_items", desc: "Change items of a pending order to other options of the same products; can be called once per order. Needs explicit user confirmation first.",
			params: []param{pOrderID, pItemIDs, pNewItems, pPaymentID},
			run:    modifyPendingOrderItems},
		{name: "modify_pending_order_payment", desc: "Change the payment method of a pending order. Needs explicit user confirmation first.",
			params: []param{pOrderID, pPaymentID},
			run:    modifyPendingOrderPayment},
		{name: "modify_user_address", desc: "Change a user's default address. Needs explicit user confirmation first.",
			params: append([]param{pUserID}, pAddress...),
			run: func(db *DB, a args) string {
				if !db.Has("users", a.str("user_id")) {
					return "Error: user not found"
				}
				user := db.Mut("users", a.str("user_id"))
				user.Set("address", addressFrom(a))
				return Dumps(user)
			}},
		{name: "return_delivered_order_items", desc: "Request the return of items of a delivered order; the refund goes to the original payment method or a gift card. Needs explicit user confirmation first.",
			params: []param{pOrderID, pItemIDs, pPaymentID},
			run:    returnDeliveredOrderItems},
		thinkTool(),
		transferTool(),
	}
}

func calculateTool() *tool {
	return &tool{name: "calculate", desc: "Evaluate an arithmetic expression with numbers, + - * /, parentheses and spaces.",
		params: []param{{name: "expression", kind: kString, desc: "The expression, e.g. '2 + 2'."}},
		run:    func(_ *DB, a args) string { return calculate(a.str("expression")) }}
}

func thinkTool() *tool {
	return &tool{name: "think", desc: "Write down a thought; changes nothing and returns nothing.",
		params: []param{{name: "thought", kind: kString, desc: "The thought."}},
		run:    func(*DB, args) string { return "" }}
}

func transferTool() *tool {
	return &tool{name: "transfer_to_human_agents", terminal: true,
		desc:   "Hand the user over to a human agent with a summary; only when asked to or when the request is outside the tools' scope.",
		params: []param{{name: "summary", kind: kString, desc: "Summary of the user's issue."}},
		run:    func(*DB, args) string { return "Transfer successful" }}
}

// lookupTool returns json.dumps of one row, or a fixed error message.
func lookupTool(name, desc string, p param, tbl, notFound string) *tool {
	return &tool{name: name, desc: desc, params: []param{p},
		run: func(db *DB, a args) string {
			if row, ok := db.Row(tbl, a.str(p.name)); ok {
				return Dumps(row)
			}
			return notFound
		}}
}

func findUser(db *DB, match func(*Object) bool) string {
	found := ""
	db.Each("users", func(id string, p *Object) bool {
		if match(p) {
			found = id
			return false
		}
		return true
	})
	if found == "" {
		return "Error: user not found"
	}
	return found
}

func addressFrom(a args) *Object {
	o := NewObject()
	for _, p := range pAddress {
		o.Set(p.name, a.str(p.name))
	}
	return o
}

func strsToValues(s []string) []Value {
	out := make([]Value, len(s))
	for i, x := range s {
		out[i] = x
	}
	return out
}

func sortedValues(s []string) []Value {
	c := append([]string(nil), s...)
	sort.Strings(c)
	return strsToValues(c)
}

func count(s []string, x string) int {
	n := 0
	for _, e := range s {
		if e == x {
			n++
		}
	}
	return n
}

// orderItemIDs lists the item ids of an order's items.
func orderItemIDs(order *Object) []string {
	var ids []string
	for _, it := range getArr(order, "items") {
		ids = append(ids, getStr(asObj(it, "item"), "item_id"))
	}
	return ids
}

// firstItem is the first order item with item_id id.
func firstItem(order *Object, id string) *Object {
	for _, it := range getArr(order, "items") {
		o := asObj(it, "item")
		if getStr(o, "item_id") == id {
			return o
		}
	}
	raise("list index out of range")
	return nil
}

// userPayment returns the user's payment method, or nil.
func userPayment(db *DB, userID, pmID string, mutable bool) *Object {
	var user *Object
	if mutable {
		user = db.Mut("users", userID)
	} else {
		u, ok := db.Row("users", userID)
		if !ok {
			keyErr(userID)
		}
		user = u
	}
	v, ok := getObj(user, "payment_methods").Get(pmID)
	if !ok {
		return nil
	}
	return asObj(v, "payment method")
}

// priceDiff sums new minus old prices for item swaps, checking that each
// new item is an available variant of the old item's product.
func priceDiff(db *DB, order *Object, items, newItems []string) (Num, string) {
	diff := Int(0)
	for i := range items {
		item := firstItem(order, items[i])
		pid := getStr(item, "product_id")
		prod, ok := db.Row("products", pid)
		if !ok {
			keyErr(pid)
		}
		v, ok := getObj(prod, "variants").Get(newItems[i])
		if !ok || asObj(v, "variant").vals["available"] != true {
			return diff, "Error: new item " + newItems[i] + " not found or available"
		}
		diff = diff.Add(getNum(asObj(v, "variant"), "price").Sub(getNum(item, "price")))
	}
	return diff, ""
}

// checkItems mirrors the official "count in request <= count in order".
func checkItems(order *Object, items []string) string {
	all := orderItemIDs(order)
	for _, id := range items {
		if count(items, id) > count(all, id) {
			return id
		}
	}
	return ""
}

func cancelPendingOrder(db *DB, a args) string {
	id := a.str("order_id")
	if !db.Has("orders", id) {
		return "Error: order not found"
	}
	order := db.Mut("orders", id)
	if getStr(order, "status") != "pending" {
		return "Error: non-pending order cannot be cancelled"
	}
	reason := a.str("reason")
	if reason != "no longer needed" && reason != "ordered by mistake" {
		return "Error: invalid reason"
	}
	history := getArr(order, "payment_history")
	var refunds []Value
	for _, p := range history {
		pay := asObj(p, "payment")
		pmID := getStr(pay, "payment_method_id")
		amount := get(pay, "amount")
		refunds = append(refunds, NewObject().Set("transaction_type", "refund").Set("amount", amount).Set("payment_method_id", pmID))
		if strings.Contains(pmID, "gift_card") {
			pm := userPayment(db, getStr(order, "user_id"), pmID, true)
			if pm == nil {
				keyErr(pmID)
			}
			pm.Set("balance", getNum(pm, "balance").Add(asNum(amount, "amount")).Round2())
		}
	}
	order.Set("status", "cancelled")
	order.Set("cancel_reason", reason)
	order.Set("payment_history", append(history, refunds...))
	return Dumps(order)
}

func exchangeDeliveredOrderItems(db *DB, a args) string {
	id := a.str("order_id")
	if !db.Has("orders", id) {
		return "Error: order not found"
	}
	order := db.Mut("orders", id)
	if getStr(order, "status") != "delivered" {
		return "Error: non-delivered order cannot be exchanged"
	}
	items, newItems := a.strs("item_ids"), a.strs("new_item_ids")
	if bad := checkItems(order, items); bad != "" {
		return "Error: " + bad + " not found"
	}
	if len(items) != len(newItems) {
		return "Error: the number of items to be exchanged should match"
	}
	diff, msg := priceDiff(db, order, items, newItems)
	if msg != "" {
		return msg
	}
	diff = diff.Round2()
	pmID := a.str("payment_method_id")
	pm := userPayment(db, getStr(order, "user_id"), pmID, false)
	if pm == nil {
		return "Error: payment method not found"
	}
	if getStr(pm, "source") == "gift_card" && getNum(pm, "balance").Less(diff) {
		return "Error: insufficient gift card balance to pay for the price difference"
	}
	order.Set("status", "exchange requested")
	order.Set("exchange_items", sortedValues(items))
	order.Set("exchange_new_items", sortedValues(newItems))
	order.Set("exchange_payment_method_id", pmID)
	order.Set("exchange_price_difference", diff)
	return Dumps(order)
}

func modifyPendingOrderItems(db *DB, a args) string {
	id := a.str("order_id")
	if !db.Has("orders", id) {
		return "Error: order not found"
	}
	order := db.Mut("orders", id)
	if getStr(order, "status") != "pending" {
		return "Error: non-pending order cannot be modified"
	}
	items, newItems := a.strs("item_ids"), a.strs("new_item_ids")
	if bad := checkItems(order, items); bad != "" {
		return "Error: " + bad + " not found"
	}
	if len(items) != len(newItems) {
		return "Error: the number of items to be exchanged should match"
	}
	diff, msg := priceDiff(db, order, items, newItems)
	if msg != "" {
		return msg
	}
	pmID := a.str("payment_method_id")
	uid := getStr(order, "user_id")
	if userPayment(db, uid, pmID, false) == nil {
		return "Error: payment method not found"
	}
	pm := userPayment(db, uid, pmID, true)
	isGift := getStr(pm, "source") == "gift_card"
	if isGift && getNum(pm, "balance").Less(diff) {
		return "Error: insufficient gift card balance to pay for the new item"
	}
	kind := "refund"
	if Int(0).Less(diff) {
		kind = "payment"
	}
	order.Set("payment_history", append(getArr(order, "payment_history"),
		NewObject().Set("transaction_type", kind).Set("amount", diff.Abs()).Set("payment_method_id", pmID)))
	if isGift {
		pm.Set("balance", getNum(pm, "balance").Sub(diff).Round2())
	}
	for i := range items {
		item := firstItem(order, items[i])
		prod, _ := db.Row("products", getStr(item, "product_id"))
		variant := asObj(get(getObj(prod, "variants"), newItems[i]), "variant")
		item.Set("item_id", newItems[i])
		item.Set("price", get(variant, "price"))
		item.Set("options", Clone(get(variant, "options")))
	}
	order.Set("status", "pending (item modified)")
	return Dumps(order)
}

func modifyPendingOrderPayment(db *DB, a args) string {
	id := a.str("order_id")
	if !db.Has("orders", id) {
		return "Error: order not found"
	}
	order := db.Mut("orders", id)
	if getStr(order, "status") != "pending" {
		return "Error: non-pending order cannot be modified"
	}
	pmID := a.str("payment_method_id")
	uid := getStr(order, "user_id")
	if userPayment(db, uid, pmID, false) == nil {
		return "Error: payment method not found"
	}
	history := getArr(order, "payment_history")
	if len(history) > 1 || getStr(asObj(index(history, 0), "payment"), "transaction_type") != "payment" {
		return "Error: there should be exactly one payment for a pending order"
	}
	first := asObj(history[0], "payment")
	oldID := getStr(first, "payment_method_id")
	if oldID == pmID {
		return "Error: the new payment method should be different from the current one"
	}
	amount := getNum(first, "amount")
	pm := userPayment(db, uid, pmID, true)
	if getStr(pm, "source") == "gift_card" && getNum(pm, "balance").Less(amount) {
		return "Error: insufficient gift card balance to pay for the order"
	}
	order.Set("payment_history", append(history,
		NewObject().Set("transaction_type", "payment").Set("amount", amount).Set("payment_method_id", pmID),
		NewObject().Set("transaction_type", "refund").Set("amount", amount).Set("payment_method_id", oldID)))
	if getStr(pm, "source") == "gift_card" {
		pm.Set("balance", getNum(pm, "balance").Sub(amount).Round2())
	}
	if strings.Contains(oldID, "gift_card") {
		old := userPayment(db, uid, oldID, true)
		if old == nil {
			keyErr(oldID)
		}
		old.Set("balance", getNum(old, "balance").Add(amount).Round2())
	}
	return Dumps(order)
}

func returnDeliveredOrderItems(db *DB, a args) string {
	id := a.str("order_id")
	if !db.Has("orders", id) {
		return "Error: order not found"
	}
	order := db.Mut("orders", id)
	if getStr(order, "status") != "delivered" {
		return "Error: non-delivered order cannot be returned"
	}
	pmID := a.str("payment_method_id")
	if userPayment(db, getStr(order, "user_id"), pmID, false) == nil {
		return "Error: payment method not found"
	}
	first := asObj(index(getArr(order, "payment_history"), 0), "payment")
	if !strings.Contains(pmID, "gift_card") && pmID != getStr(first, "payment_method_id") {
		return "Error: payment method should be either the original payment method or a gift card"
	}
	items := a.strs("item_ids")
	if checkItems(order, items) != "" {
		return "Error: some item not found"
	}
	order.Set("status", "return requested")
	order.Set("return_items", sortedValues(items))
	order.Set("return_payment_method_id", pmID)
	return Dumps(order)
}
