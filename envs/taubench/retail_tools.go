package taubench

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
				return findUser(db, func(p *Object) bool { return pyLower(pyGet(p, "email")) == pyLower(a["email"]) })
			}},
		{name: "find_user_id_by_name_zip", desc: "Find a user id by first name, last name and zip code; use only when the email is unknown.",
			params: []param{{name: "first_name", kind: kString, desc: "First name."}, {name: "last_name", kind: kString, desc: "Last name."}, {name: "zip", kind: kString, desc: "Zip code."}},
			run: func(db *DB, a args) string {
				return findUser(db, func(p *Object) bool {
					name := pyGet(p, "name")
					return pyLower(pyGet(name, "first_name")) == pyLower(a["first_name"]) &&
						pyLower(pyGet(name, "last_name")) == pyLower(a["last_name"]) &&
						pyEq(pyGet(pyGet(p, "address"), "zip"), a["zip"])
				})
			}},
		lookupTool("get_order_details", "Get the status and details of an order.", pOrderID, "orders", "Error: order not found"),
		lookupTool("get_product_details", "Get a product and all its variants (items).",
			param{name: "product_id", kind: kString, desc: "Product id (not an item id)."}, "products", "Error: product not found"),
		lookupTool("get_user_details", "Get a user's profile, including their orders.", pUserID, "users", "Error: user not found"),
		{name: "list_all_product_types", desc: "List every product type's name and product id (50 in the store).",
			run: func(db *DB, _ args) string {
				byName := NewObject()
				db.Each("products", func(_ string, p *Object) bool {
					pySet(byName, pyGet(p, "name"), pyGet(p, "product_id"))
					return true
				})
				out := NewObject()
				for _, n := range pySorted(byName) {
					out.Set(n.(string), byName.vals[n.(string)])
				}
				return Dumps(out)
			}},
		{name: "modify_pending_order_address", desc: "Change the shipping address of a pending order. Needs explicit user confirmation first.",
			params: append([]param{pOrderID}, pAddress...),
			run: func(db *DB, a args) string {
				if !tblHas(db, "orders", a["order_id"]) {
					return "Error: order not found"
				}
				order := row(db, "orders", a["order_id"], true)
				if !pyEq(pyGet(order, "status"), "pending") {
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
				if !tblHas(db, "users", a["user_id"]) {
					return "Error: user not found"
				}
				user := row(db, "users", a["user_id"], true)
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
		run:    func(_ *DB, a args) string { return calculate(a["expression"]) }}
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
			if tblHas(db, tbl, a[p.name]) {
				return Dumps(row(db, tbl, a[p.name], false))
			}
			return notFound
		}}
}

// tblHas is `k in data[tbl]`.
func tblHas(db *DB, tbl string, k Value) bool {
	hashable(k)
	s, ok := k.(string)
	return ok && db.Has(tbl, s)
}

// row is data[tbl][k]; mut when the tool may write into the row (the
// database copies it on first write).
func row(db *DB, tbl string, k Value, mut bool) *Object {
	hashable(k)
	s, ok := k.(string)
	if !ok || !db.Has(tbl, s) {
		raise("%s", pyRepr(k))
	}
	if mut {
		return db.Mut(tbl, s)
	}
	r, _ := db.Row(tbl, s)
	return r
}

// appendTo is o[k].append(x) (method "append") or o[k].extend(xs)
// (method "extend"). The list is copied so that no other value shares
// its backing array.
func appendTo(o Value, k string, method string, xs ...Value) {
	cur := pyGet(o, k)
	l, ok := cur.([]Value)
	if !ok {
		raise("'%s' object has no attribute '%s'", typeName(cur), method)
	}
	pySet(o, k, append(l[:len(l):len(l)], xs...))
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
		o.Set(p.name, a[p.name])
	}
	return o
}

// checkItems is the official loop
//
//	for item_id in item_ids:
//	    if item_ids.count(item_id) > all_item_ids.count(item_id): ...
//
// returning the first item id that fails, and ok=false then.
func checkItems(order Value, itemIDs Value) (bad Value, ok bool) {
	var all []Value
	for _, it := range pyIter(pyGet(order, "items")) {
		all = append(all, pyGet(it, "item_id"))
	}
	for _, id := range pyIter(itemIDs) {
		if pyCount(itemIDs, id) > pyCount(all, id) {
			return id, false
		}
	}
	return nil, true
}

// firstItem is [item for item in order["items"] if item["item_id"] == id][0].
func firstItem(order Value, id Value) Value {
	var match []Value
	for _, it := range pyIter(pyGet(order, "items")) {
		if pyEq(pyGet(it, "item_id"), id) {
			match = append(match, it)
		}
	}
	return pyGet(match, Int(0))
}

// pyZip is zip(a, b) of two iterables.
func pyZip(a, b Value) [][2]Value {
	xs, ys := pyIter(a), pyIter(b)
	n := len(xs)
	if len(ys) < n {
		n = len(ys)
	}
	out := make([][2]Value, n)
	for i := 0; i < n; i++ {
		out[i] = [2]Value{xs[i], ys[i]}
	}
	return out
}

// swapPrice is the items loop shared by exchange and modify: the summed
// price difference, or the official error text.
func swapPrice(db *DB, order Value, itemIDs, newIDs Value) (Value, string) {
	var diff Value = Int(0)
	for _, pair := range pyZip(itemIDs, newIDs) {
		item := firstItem(order, pair[0])
		pid := pyGet(item, "product_id")
		variants := pyGet(row(db, "products", pid, false), "variants")
		if !(pyIn(pair[1], variants) && truthy(pyGet(pyGet(variants, pair[1]), "available"))) {
			return nil, "Error: new item " + pyStr(pair[1]) + " not found or available"
		}
		oldPrice := pyGet(item, "price")
		newPrice := pyGet(pyGet(variants, pair[1]), "price")
		diff = pyAdd(diff, pySub(newPrice, oldPrice, "-"), "+=")
	}
	return diff, ""
}

// userPM is users[order["user_id"]]["payment_methods"], copied for
// writing when mut.
func userPMs(db *DB, uid Value, mut bool) Value {
	return pyGet(row(db, "users", uid, mut), "payment_methods")
}

func cancelPendingOrder(db *DB, a args) string {
	if !tblHas(db, "orders", a["order_id"]) {
		return "Error: order not found"
	}
	order := row(db, "orders", a["order_id"], true)
	if !pyEq(pyGet(order, "status"), "pending") {
		return "Error: non-pending order cannot be cancelled"
	}
	if !pyIn(a["reason"], []Value{"no longer needed", "ordered by mistake"}) {
		return "Error: invalid reason"
	}
	var refunds []Value
	for _, payment := range pyIter(pyGet(order, "payment_history")) {
		pmID := pyGet(payment, "payment_method_id")
		refunds = append(refunds, NewObject().Set("transaction_type", "refund").Set("amount", pyGet(payment, "amount")).Set("payment_method_id", pmID))
		if pyIn("gift_card", pmID) {
			pm := pyGet(userPMs(db, pyGet(order, "user_id"), true), pmID)
			pySet(pm, "balance", pyAdd(pyGet(pm, "balance"), pyGet(payment, "amount"), "+="))
			pySet(pm, "balance", pyRound2(pyGet(pm, "balance")))
		}
	}
	order.Set("status", "cancelled")
	order.Set("cancel_reason", a["reason"])
	appendTo(order, "payment_history", "extend", refunds...)
	return Dumps(order)
}

func exchangeDeliveredOrderItems(db *DB, a args) string {
	if !tblHas(db, "orders", a["order_id"]) {
		return "Error: order not found"
	}
	order := row(db, "orders", a["order_id"], true)
	if !pyEq(pyGet(order, "status"), "delivered") {
		return "Error: non-delivered order cannot be exchanged"
	}
	itemIDs, newIDs := a["item_ids"], a["new_item_ids"]
	if bad, ok := checkItems(order, itemIDs); !ok {
		return "Error: " + pyStr(bad) + " not found"
	}
	if pyLen(itemIDs) != pyLen(newIDs) {
		return "Error: the number of items to be exchanged should match"
	}
	diff, msg := swapPrice(db, order, itemIDs, newIDs)
	if msg != "" {
		return msg
	}
	diff = pyRound2(diff)
	pmID := a["payment_method_id"]
	uid := pyGet(order, "user_id")
	if !pyIn(pmID, userPMs(db, uid, false)) {
		return "Error: payment method not found"
	}
	pm := pyGet(userPMs(db, uid, false), pmID)
	if pyEq(pyGet(pm, "source"), "gift_card") && pyLt(pyGet(pm, "balance"), diff) {
		return "Error: insufficient gift card balance to pay for the price difference"
	}
	order.Set("status", "exchange requested")
	order.Set("exchange_items", pySorted(itemIDs))
	order.Set("exchange_new_items", pySorted(newIDs))
	order.Set("exchange_payment_method_id", pmID)
	order.Set("exchange_price_difference", diff)
	return Dumps(order)
}

func modifyPendingOrderItems(db *DB, a args) string {
	if !tblHas(db, "orders", a["order_id"]) {
		return "Error: order not found"
	}
	order := row(db, "orders", a["order_id"], true)
	if !pyEq(pyGet(order, "status"), "pending") {
		return "Error: non-pending order cannot be modified"
	}
	itemIDs, newIDs := a["item_ids"], a["new_item_ids"]
	if bad, ok := checkItems(order, itemIDs); !ok {
		return "Error: " + pyStr(bad) + " not found"
	}
	if pyLen(itemIDs) != pyLen(newIDs) {
		return "Error: the number of items to be exchanged should match"
	}
	diff, msg := swapPrice(db, order, itemIDs, newIDs)
	if msg != "" {
		return msg
	}
	pmID := a["payment_method_id"]
	uid := pyGet(order, "user_id")
	if !pyIn(pmID, userPMs(db, uid, false)) {
		return "Error: payment method not found"
	}
	pm := pyGet(userPMs(db, uid, true), pmID)
	if pyEq(pyGet(pm, "source"), "gift_card") && pyLt(pyGet(pm, "balance"), diff) {
		return "Error: insufficient gift card balance to pay for the new item"
	}
	kind := "refund"
	if pyGt(diff, Int(0)) {
		kind = "payment"
	}
	appendTo(order, "payment_history", "append",
		NewObject().Set("transaction_type", kind).Set("amount", pyAbs(diff)).Set("payment_method_id", pmID))
	if pyEq(pyGet(pm, "source"), "gift_card") {
		pySet(pm, "balance", pySub(pyGet(pm, "balance"), diff, "-="))
		pySet(pm, "balance", pyRound2(pyGet(pm, "balance")))
	}
	for _, pair := range pyZip(itemIDs, newIDs) {
		item := firstItem(order, pair[0])
		pySet(item, "item_id", pair[1])
		variant := func() Value {
			return pyGet(pyGet(row(db, "products", pyGet(item, "product_id"), false), "variants"), pair[1])
		}
		pySet(item, "price", pyGet(variant(), "price"))
		pySet(item, "options", Clone(pyGet(variant(), "options")))
	}
	order.Set("status", "pending (item modified)")
	return Dumps(order)
}

func modifyPendingOrderPayment(db *DB, a args) string {
	if !tblHas(db, "orders", a["order_id"]) {
		return "Error: order not found"
	}
	order := row(db, "orders", a["order_id"], true)
	if !pyEq(pyGet(order, "status"), "pending") {
		return "Error: non-pending order cannot be modified"
	}
	pmID := a["payment_method_id"]
	uid := pyGet(order, "user_id")
	if !pyIn(pmID, userPMs(db, uid, false)) {
		return "Error: payment method not found"
	}
	history := func() Value { return pyGet(order, "payment_history") }
	first := func() Value { return pyGet(history(), Int(0)) }
	if pyLen(history()) > 1 || !pyEq(pyGet(first(), "transaction_type"), "payment") {
		return "Error: there should be exactly one payment for a pending order"
	}
	if pyEq(pyGet(first(), "payment_method_id"), pmID) {
		return "Error: the new payment method should be different from the current one"
	}
	amount := pyGet(first(), "amount")
	pm := pyGet(userPMs(db, uid, true), pmID)
	if pyEq(pyGet(pm, "source"), "gift_card") && pyLt(pyGet(pm, "balance"), amount) {
		return "Error: insufficient gift card balance to pay for the order"
	}
	appendTo(order, "payment_history", "extend",
		NewObject().Set("transaction_type", "payment").Set("amount", amount).Set("payment_method_id", pmID),
		NewObject().Set("transaction_type", "refund").Set("amount", amount).Set("payment_method_id", pyGet(first(), "payment_method_id")))
	if pyEq(pyGet(pm, "source"), "gift_card") {
		pySet(pm, "balance", pySub(pyGet(pm, "balance"), amount, "-="))
		pySet(pm, "balance", pyRound2(pyGet(pm, "balance")))
	}
	if pyIn("gift_card", pyGet(first(), "payment_method_id")) {
		old := pyGet(userPMs(db, uid, true), pyGet(first(), "payment_method_id"))
		pySet(old, "balance", pyAdd(pyGet(old, "balance"), amount, "+="))
		pySet(old, "balance", pyRound2(pyGet(old, "balance")))
	}
	return Dumps(order)
}

func returnDeliveredOrderItems(db *DB, a args) string {
	if !tblHas(db, "orders", a["order_id"]) {
		return "Error: order not found"
	}
	order := row(db, "orders", a["order_id"], true)
	if !pyEq(pyGet(order, "status"), "delivered") {
		return "Error: non-delivered order cannot be returned"
	}
	pmID := a["payment_method_id"]
	if !pyIn(pmID, userPMs(db, pyGet(order, "user_id"), false)) {
		return "Error: payment method not found"
	}
	if !pyIn("gift_card", pmID) && !pyEq(pmID, pyGet(pyGet(pyGet(order, "payment_history"), Int(0)), "payment_method_id")) {
		return "Error: payment method should be either the original payment method or a gift card"
	}
	if _, ok := checkItems(order, a["item_ids"]); !ok {
		return "Error: some item not found"
	}
	order.Set("status", "return requested")
	order.Set("return_items", pySorted(a["item_ids"]))
	order.Set("return_payment_method_id", pmID)
	return Dumps(order)
}
