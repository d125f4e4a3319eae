package taubench

import (
	"strings"
	"testing"
)

func embeddedSuite(t testing.TB, d Domain) *Suite {
	t.Helper()
	s, err := Embedded(d)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// call invokes one tool with JSON arguments on db.
func call(t testing.TB, s *Suite, db *DB, name, kwJSON string) (string, bool) {
	t.Helper()
	kw, err := Decode([]byte(kwJSON))
	if err != nil {
		t.Fatal(err)
	}
	tl := s.d.tools[name]
	if tl == nil {
		t.Fatalf("no tool %s", name)
	}
	out, bad, err := invoke(tl, db, kw)
	if err != nil {
		t.Fatal(err)
	}
	return out, bad
}

type toolCase struct {
	name, tool, args string
	want             string // substring of the output
	invalid          bool
}

func runToolCases(t *testing.T, d Domain, cases []toolCase) {
	s := embeddedSuite(t, d)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, bad := call(t, s, s.d.base.Fresh(), tc.tool, tc.args)
			if !strings.Contains(out, tc.want) || bad != tc.invalid {
				t.Errorf("%s(%s) = %q (invalid %v), want %q (invalid %v)", tc.tool, tc.args, out, bad, tc.want, tc.invalid)
			}
		})
	}
}

func TestRetailTools(t *testing.T) {
	runToolCases(t, Retail, []toolCase{
		{"email lookup is case-insensitive", "find_user_id_by_email", `{"email": "LENA.ortiz@example.com"}`, "lena_ortiz_1001", false},
		{"unknown email", "find_user_id_by_email", `{"email": "x@y.z"}`, "Error: user not found", false},
		{"name zip", "find_user_id_by_name_zip", `{"first_name": "omar", "last_name": "HADDAD", "zip": "60614"}`, "omar_haddad_1002", false},
		{"missing order", "get_order_details", `{"order_id": "W1"}`, "Error: order not found", false},
		{"cancel non-pending", "cancel_pending_order", `{"order_id": "#E1000003", "reason": "no longer needed"}`, "Error: non-pending order cannot be cancelled", false},
		{"cancel bad reason", "cancel_pending_order", `{"order_id": "#E1000001", "reason": "meh"}`, "Error: invalid reason", false},
		{"cancel refunds gift card", "cancel_pending_order", `{"order_id": "#E1000008", "reason": "no longer needed"}`, `"status": "cancelled", "payment_history": [{"transaction_type": "payment", "amount": 64.25, "payment_method_id": "gift_card_5550006"}, {"transaction_type": "refund", "amount": 64.25, "payment_method_id": "gift_card_5550006"}], "cancel_reason": "no longer needed"}`, false},
		{"return too many", "return_delivered_order_items", `{"order_id": "#E1000005", "item_ids": ["2000000041", "2000000041", "2000000041"], "payment_method_id": "paypal_5550003"}`, "Error: some item not found", false},
		{"return to other card", "return_delivered_order_items", `{"order_id": "#E1000007", "item_ids": ["2000000033"], "payment_method_id": "gift_card_5550002"}`, "Error: payment method not found", false},
		{"exchange unavailable", "exchange_delivered_order_items", `{"order_id": "#E1000005", "item_ids": ["2000000041"], "new_item_ids": ["2000000043"], "payment_method_id": "paypal_5550003"}`, "Error: new item 2000000043 not found or available", false},
		{"exchange count mismatch", "exchange_delivered_order_items", `{"order_id": "#E1000005", "item_ids": ["2000000041"], "new_item_ids": [], "payment_method_id": "paypal_5550003"}`, "should match", false},
		{"exchange price difference", "exchange_delivered_order_items", `{"order_id": "#E1000007", "item_ids": ["2000000033"], "new_item_ids": ["2000000032"], "payment_method_id": "credit_card_5550005"}`, `"exchange_price_difference": -1.4}`, false},
		{"modify refunds to gift card", "modify_pending_order_items", `{"order_id": "#E1000004", "item_ids": ["2000000032"], "new_item_ids": ["2000000031"], "payment_method_id": "gift_card_5550004"}`, `"amount": 10.800000000000004`, false},
		{"modify payment same method", "modify_pending_order_payment", `{"order_id": "#E1000006", "payment_method_id": "credit_card_5550005"}`, "should be different", false},
		{"list products sorted", "list_all_product_types", `{}`, `{"Backpack": "1000000003", "Desk Lamp": "1000000001", "Notebook": "1000000004", "Water Bottle": "1000000002"}`, false},
		{"think", "think", `{"thought": "hm"}`, "", false},
		{"transfer", "transfer_to_human_agents", `{"summary": "s"}`, "Transfer successful", false},
		{"unexpected argument", "get_order_details", `{"order_id": "#E1000001", "x": 1}`, "got an unexpected keyword argument 'x'", true},
		{"missing arguments", "modify_user_address", `{"user_id": "lena_ortiz_1001"}`, "missing 6 required positional arguments: 'address1', 'address2'", true},
		{"wrong type", "return_delivered_order_items", `{"order_id": "#E1000005", "item_ids": "2000000041", "payment_method_id": "paypal_5550003"}`, "Error: some item not found", false}, // Python iterates the string's characters
	})
}

func TestAirlineTools(t *testing.T) {
	runToolCases(t, Airline, []toolCase{
		{"direct search", "search_direct_flight", `{"origin": "BOS", "destination": "SEA", "date": "2024-05-16"}`, `[{"flight_number": "HAT903", "origin": "BOS", "destination": "SEA", "scheduled_departure_time_est": "09:00:00", "scheduled_arrival_time_est": "12:40:00", "status": "available"`, false},
		{"cancelled date not listed", "search_direct_flight", `{"origin": "BOS", "destination": "SEA", "date": "2024-05-17"}`, `[]`, false},
		{"one stop", "search_onestop_flight", `{"origin": "BOS", "destination": "SEA", "date": "2024-05-16"}`, `"flight_number": "HAT902"`, false},
		{"airports", "list_all_airports", `{}`, `"LGA": "LaGuardia"}`, false},
		{"missing reservation says user", "get_reservation_details", `{"reservation_id": "NOPE"}`, "Error: user not found", false},
		{"book adds up", "book_reservation", `{"user_id": "leo_park_2002", "origin": "BOS", "destination": "SEA", "flight_type": "one_way", "cabin": "economy", "flights": [{"flight_number": "HAT903", "date": "2024-05-16"}], "passengers": [{"first_name": "Leo", "last_name": "Park", "dob": "1990-07-07"}], "payment_methods": [{"payment_id": "credit_card_7000003", "amount": 300}], "total_baggages": 0, "nonfree_baggages": 0, "insurance": "no"}`, "Error: payment amount does not add up, total price is 310, but paid 300", false},
		{"book no seats", "book_reservation", `{"user_id": "leo_park_2002", "origin": "BOS", "destination": "ORD", "flight_type": "one_way", "cabin": "basic_economy", "flights": [{"flight_number": "HAT901", "date": "2024-05-17"}], "passengers": [{"first_name": "Leo", "last_name": "Park", "dob": "1990-07-07"}], "payment_methods": [], "total_baggages": 0, "nonfree_baggages": 0, "insurance": "no"}`, "Error: not enough seats on flight HAT901", false},
		{"book bad cabin raises", "book_reservation", `{"user_id": "leo_park_2002", "origin": "BOS", "destination": "ORD", "flight_type": "one_way", "cabin": "first", "flights": [{"flight_number": "HAT901", "date": "2024-05-16"}], "passengers": [], "payment_methods": [], "total_baggages": 0, "nonfree_baggages": 0, "insurance": "no"}`, "Error: 'first'", true},
		{"book ok", "book_reservation", `{"user_id": "leo_park_2002", "origin": "BOS", "destination": "SEA", "flight_type": "one_way", "cabin": "economy", "flights": [{"flight_number": "HAT903", "date": "2024-05-16"}], "passengers": [{"first_name": "Leo", "last_name": "Park", "dob": "1990-07-07"}], "payment_methods": [{"payment_id": "credit_card_7000003", "amount": 310}], "total_baggages": 0, "nonfree_baggages": 0, "insurance": "no"}`, `{"reservation_id": "HATHAT", "user_id": "leo_park_2002"`, false},
		{"certificate", "send_certificate", `{"user_id": "nia_cole_2003", "amount": 50.0}`, "Certificate certificate_3221322 added to user nia_cole_2003 with amount 50.0.", false},
		{"baggage with certificate", "update_reservation_baggages", `{"reservation_id": "R2BBB1", "total_baggages": 1, "nonfree_baggages": 1, "payment_id": "certificate_7000004"}`, "Error: certificate cannot be used", false},
		{"cabin change keeps cabin (official quirk)", "update_reservation_flights", `{"reservation_id": "R2BBB1", "cabin": "economy", "flights": [{"flight_number": "HAT907", "date": "2024-05-18"}, {"flight_number": "HAT908", "date": "2024-05-22"}], "payment_id": "credit_card_7000003"}`, `"cabin": "basic_economy", "flights": [{"flight_number": "HAT907", "date": "2024-05-18", "price": 130`, false},
		{"passenger count", "update_reservation_passengers", `{"reservation_id": "R1AAA1", "passengers": []}`, "Error: number of passengers does not match", false},
		{"cancel refunds", "cancel_reservation", `{"reservation_id": "R1AAA1"}`, `"payment_history": [{"payment_id": "credit_card_7000001", "amount": 310}, {"payment_id": "credit_card_7000001", "amount": -310}]`, false},
	})
}

// TestCopyOnWrite checks that episodes never write the shared loaded data.
func TestCopyOnWrite(t *testing.T) {
	s := embeddedSuite(t, Retail)
	before := Dumps(s.d.base.tables["orders"].base) + Dumps(s.d.base.tables["users"].base)
	db := s.d.base.Fresh()
	call(t, s, db, "cancel_pending_order", `{"order_id": "#E1000008", "reason": "no longer needed"}`)
	call(t, s, db, "modify_user_address", `{"user_id": "lena_ortiz_1001", "address1": "a", "address2": "", "city": "c", "state": "s", "country": "USA", "zip": "1"}`)
	if after := Dumps(s.d.base.tables["orders"].base) + Dumps(s.d.base.tables["users"].base); after != before {
		t.Fatal("loaded data was modified")
	}
	if same, diff := SameState(db, s.d.base.Fresh()); same || diff == "" {
		t.Errorf("SameState = %v %q, want a difference", same, diff)
	}
	gift := func(db *DB) string {
		u, _ := db.Row("users", "sam_okafor_1004")
		return Dumps(pyGet(pyGet(u, "payment_methods"), "gift_card_5550006"))
	}
	if got := gift(db); !strings.Contains(got, `"balance": 214.25`) {
		t.Errorf("gift card after refund: %s", got)
	}
	if got := gift(s.d.base.Fresh()); !strings.Contains(got, `"balance": 150`) {
		t.Errorf("fresh gift card: %s", got)
	}
}
