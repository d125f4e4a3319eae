package taubench

import (
	"strings"
	"testing"
)

// Each case quoted in issue 14, on the embedded data; the wanted texts are
// what the official Python tools return for the same call (CPython 3.11).
func TestIssue14ToolCases(t *testing.T) {
	book := func(over string) string {
		base := map[string]string{
			"user_id": `"leo_park_2002"`, "origin": `"BOS"`, "destination": `"SEA"`, "flight_type": `"one_way"`,
			"cabin": `"economy"`, "flights": `[{"flight_number": "HAT903", "date": "2024-05-16"}]`,
			"passengers":      `[{"first_name": "Leo", "last_name": "Park", "dob": "1990-07-07"}]`,
			"payment_methods": `[{"payment_id": "credit_card_7000003", "amount": 310}]`,
			"total_baggages":  `0`, "nonfree_baggages": `0`, "insurance": `"no"`,
		}
		for _, kv := range strings.Split(over, ";") {
			if k, v, ok := strings.Cut(kv, "="); ok {
				base[k] = v
			}
		}
		var b strings.Builder
		b.WriteString("{")
		for i, k := range []string{"user_id", "origin", "destination", "flight_type", "cabin", "flights", "passengers", "payment_methods", "total_baggages", "nonfree_baggages", "insurance"} {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(`"` + k + `": ` + base[k])
		}
		return b.String() + "}"
	}
	runToolCases(t, Airline, []toolCase{
		{"calculate int", "calculate", `{"expression": 123}`, "Error: 'int' object is not iterable", true},
		{"calculate empty", "calculate", `{"expression": ""}`, "Error: invalid syntax (<string>, line 0)", false},
		{"calculate list", "calculate", `{"expression": ["1", "+", "23"]}`, "Error: eval() arg 1 must be a string, bytes or code object", false},
		{"passengers null", "book_reservation", book(`passengers=null`), "Error: object of type 'NoneType' has no len()", true},
		{"total_baggages string is stored", "book_reservation", book(`total_baggages="0"`), `"total_baggages": "0", "nonfree_baggages": 0`, false},
		{"nonfree_baggages string", "book_reservation", book(`nonfree_baggages="0"`), "Error: unsupported operand type(s) for +=: 'int' and 'str'", true},
		{"flight number float", "book_reservation", book(`flights=[{"flight_number": 12.5, "date": "2024-05-16"}]`), "Error: flight 12.5 not found", false},
		{"flight number list", "book_reservation", book(`flights=[{"flight_number": ["HAT903"], "date": "2024-05-16"}]`), "Error: unhashable type: 'list'", true},
		{"missing reservation id", "cancel_reservation", `{}`, "Error: CancelReservation.invoke() missing 1 required positional argument: 'reservation_id'", true},
		{"arguments not an object", "cancel_reservation", `["R1AAA1"]`, "Error: tau_bench.envs.airline.tools.cancel_reservation.CancelReservation.invoke() argument after ** must be a mapping, not list", true},
		{"certificate amount kept as sent", "send_certificate", `{"user_id": "nia_cole_2003", "amount": "50"}`, "with amount 50.", false},
		{"certificate amount dict", "send_certificate", `{"user_id": "nia_cole_2003", "amount": {"a": [1, 2.0, null, true]}}`, "with amount {'a': [1, 2.0, None, True]}.", false},
		{"baggage string count", "update_reservation_baggages", `{"reservation_id": "R2BBB1", "total_baggages": 1, "nonfree_baggages": "1", "payment_id": "credit_card_7000003"}`, "Error: unsupported operand type(s) for -: 'str' and 'int'", true},
		{"onestop date int", "search_onestop_flight", `{"origin": "BOS", "destination": "SEA", "date": 16}`, "[]", false},
	})
	runToolCases(t, Retail, []toolCase{
		{"extra data keyword", "cancel_pending_order", `{"order_id": "#E1000001", "reason": "no longer needed", "data": {}}`, "Error: tau_bench.envs.retail.tools.cancel_pending_order.CancelPendingOrder.invoke() got multiple values for keyword argument 'data'", true},
		{"two missing", "exchange_delivered_order_items", `{"item_ids": [], "payment_method_id": "x"}`, "Error: ExchangeDeliveredOrderItems.invoke() missing 2 required positional arguments: 'order_id' and 'new_item_ids'", true},
		{"three missing", "exchange_delivered_order_items", `{"item_ids": []}`, "missing 3 required positional arguments: 'order_id', 'new_item_ids', and 'payment_method_id'", true},
		{"unexpected first", "get_order_details", `{"x": 1}`, "Error: GetOrderDetails.invoke() got an unexpected keyword argument 'x'", true},
		{"order id list", "get_order_details", `{"order_id": ["#E1000001"]}`, "Error: unhashable type: 'list'", true},
		{"order id int", "get_order_details", `{"order_id": 1000001}`, "Error: order not found", false},
		{"email int", "find_user_id_by_email", `{"email": 5}`, "Error: 'int' object has no attribute 'lower'", true},
		{"item ids dict", "return_delivered_order_items", `{"order_id": "#E1000005", "item_ids": {"2000000041": 1}, "payment_method_id": "paypal_5550003"}`, "Error: 'dict' object has no attribute 'count'", true},
		{"item ids object in list", "exchange_delivered_order_items", `{"order_id": "#E1000005", "item_ids": [{"a": 1}], "new_item_ids": [], "payment_method_id": "paypal_5550003"}`, "Error: {'a': 1} not found", false},
	})
}

// The official reward hashes the serialised data, so a certificate of
// 150.0 where the gold sends 150 fails although the values are equal.
func TestRewardHashesSerialisedData(t *testing.T) {
	s := embeddedSuite(t, Airline)
	kw := func(js string) *Object {
		v, err := Decode([]byte(js))
		if err != nil {
			t.Fatal(err)
		}
		return v.(*Object)
	}
	rec := &TaskRecord{Actions: []Action{{Name: "send_certificate", Kwargs: kw(`{"user_id": "nia_cole_2003", "amount": 150}`)}}}
	for _, tc := range []struct {
		amount string
		want   float64
	}{{"150", 1}, {"150.0", 0}, {"true", 0}, {"\"150\"", 0}, {"151", 0}} {
		db := s.d.base.Fresh()
		call(t, s, db, "send_certificate", `{"user_id": "nia_cole_2003", "amount": `+tc.amount+`}`)
		v := s.judge(rec, db, nil)
		gold, _ := s.GoldState(rec)
		if v.Reward != tc.want {
			t.Errorf("amount %s: reward %v, want %v", tc.amount, v.Reward, tc.want)
		}
		if same := DataHash(db) == DataHash(gold); same != (tc.want == 1) {
			t.Errorf("amount %s: hash equality %v disagrees with reward %v", tc.amount, same, tc.want)
		}
	}
}

func TestHashableText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"b": [1, 2.5], "a": {"x": null}}`, `(('a', (('x', None),)), ('b', (1, 2.5)))`},
		{`[]`, `()`}, {`{}`, `()`}, {`[true]`, `(True,)`}, {`["it's"]`, `("it's",)`},
		{`[150.0, 1e16, -0.0]`, `(150.0, 1e+16, -0.0)`},
	} {
		v, err := Decode([]byte(tc.in))
		if err != nil {
			t.Fatal(err)
		}
		if got := hashableText(v); got != tc.want {
			t.Errorf("hashableText(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

// FuzzToolSemantics: for any tool name and arguments, a call never fails
// inside the environment, arguments that are not an object (or that carry
// "data") give CPython's call-site text, a call is deterministic, and the
// reward's state comparison agrees with the official hash rule.
func FuzzToolSemantics(f *testing.F) {
	s := embeddedSuite(f, Airline)
	r := embeddedSuite(f, Retail)
	for _, seed := range [][2]string{
		{"calculate", `{"expression": 123}`}, {"calculate", `{"expression": ""}`},
		{"book_reservation", `{"user_id": "leo_park_2002", "origin": "BOS", "destination": "SEA", "flight_type": "one_way", "cabin": "economy", "flights": [{"flight_number": "HAT903", "date": "2024-05-16"}], "passengers": null, "payment_methods": [], "total_baggages": "0", "nonfree_baggages": 0, "insurance": "no"}`},
		{"send_certificate", `{"user_id": "nia_cole_2003", "amount": 150.0}`}, {"cancel_reservation", `{}`},
		{"cancel_reservation", `[1]`}, {"cancel_pending_order", `{"order_id": "#E1000001", "reason": "no longer needed", "data": 1}`},
		{"exchange_delivered_order_items", `{"item_ids": [], "payment_method_id": "x"}`},
		{"update_reservation_baggages", `{"reservation_id": "R2BBB1", "total_baggages": 1, "nonfree_baggages": 2.5, "payment_id": "credit_card_7000003"}`},
		{"search_onestop_flight", `{"origin": "BOS", "destination": "SEA", "date": ["2024-05-16"]}`},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, name, argsJSON string) {
		args, err := Decode([]byte(argsJSON))
		if err != nil {
			return
		}
		for _, suite := range []*Suite{s, r} {
			tl := suite.d.tools[name]
			if tl == nil {
				continue
			}
			db1, db2 := suite.d.base.Fresh(), suite.d.base.Fresh()
			out1, _, err1 := invoke(tl, db1, Clone(args))
			out2, _, err2 := invoke(tl, db2, Clone(args))
			if err1 != nil || err2 != nil {
				t.Fatalf("%s(%s): internal error %v %v", name, argsJSON, err1, err2)
			}
			if out1 != out2 {
				t.Fatalf("%s(%s): not deterministic: %q vs %q", name, argsJSON, out1, out2)
			}
			o, isObj := args.(*Object)
			switch {
			case !isObj:
				if want := "Error: " + tl.fullName() + " argument after ** must be a mapping, not " + typeName(args); out1 != want {
					t.Fatalf("%s(%s) = %q, want %q", name, argsJSON, out1, want)
				}
			case o.Has("data"):
				if want := "Error: " + tl.fullName() + " got multiple values for keyword argument 'data'"; out1 != want {
					t.Fatalf("%s(%s) = %q, want %q", name, argsJSON, out1, want)
				}
			}
			fresh := suite.d.base.Fresh()
			same, _ := SameState(db1, fresh)
			if same != (DataHash(db1) == DataHash(fresh)) {
				t.Fatalf("%s(%s): SameState %v disagrees with the data hash", name, argsJSON, same)
			}
		}
	})
}

// Python keeps big ints exactly; they print, compare and hash as ints.
func TestBigInts(t *testing.T) {
	runToolCases(t, Airline, []toolCase{
		{"certificate with a big int", "send_certificate", `{"user_id": "nia_cole_2003", "amount": 100000000000000000000000}`, "with amount 100000000000000000000000.", false},
		{"big baggage count", "update_reservation_baggages", `{"reservation_id": "R2BBB1", "total_baggages": 1, "nonfree_baggages": 100000000000000000000, "payment_id": "credit_card_7000003"}`, `"amount": 5000000000000000000000}`, false},
		{"big int times string", "book_reservation", `{"user_id": "leo_park_2002", "origin": "BOS", "destination": "SEA", "flight_type": "one_way", "cabin": "economy", "flights": [], "passengers": [], "payment_methods": [], "total_baggages": 0, "nonfree_baggages": 100000000000000000000, "insurance": "no"}`, "Error: payment amount does not add up, total price is 5000000000000000000000, but paid 0", false},
	})
	runToolCases(t, Retail, []toolCase{
		{"calculate overflow", "calculate", `{"expression": "99999999999 * 99999999999 * 99999999999 * 99999999999"}`, "9.9999999996e+43", false},
	})
	a, _ := Decode([]byte(`[18446744073709551616, 18446744073709551616.0]`))
	l := a.([]Value)
	if !pyEq(l[0], l[1]) || typeName(l[0]) != "int" || hashableText(a) != "(18446744073709551616, 1.8446744073709552e+19)" {
		t.Errorf("big int: eq %v type %s text %s", pyEq(l[0], l[1]), typeName(l[0]), hashableText(a))
	}
}
