package taubench

import (
	"strconv"
	"strings"
)

var (
	pResID      = param{name: "reservation_id", kind: kString, desc: "Reservation id, e.g. 'ZFA04Y'."}
	pAirPayment = param{name: "payment_id", kind: kString, desc: "Payment id from the user profile, e.g. 'credit_card_7815826' or 'gift_card_7815826'."}
	pCabin      = param{name: "cabin", kind: kString, enum: []string{"basic_economy", "economy", "business"}}
	pFlights    = param{name: "flights", kind: kObjectList, desc: "Flight segments.", items: []param{
		{name: "flight_number", kind: kString, desc: "Flight number, e.g. 'HAT001'."},
		{name: "date", kind: kString, desc: "Date as YYYY-MM-DD."},
	}}
	pPassengers = param{name: "passengers", kind: kObjectList, desc: "Passengers.", items: []param{
		{name: "first_name", kind: kString, desc: "First name."},
		{name: "last_name", kind: kString, desc: "Last name."},
		{name: "dob", kind: kString, desc: "Date of birth as YYYY-MM-DD."},
	}}
	pSearch = []param{
		{name: "origin", kind: kString, desc: "Origin airport code, e.g. 'JFK'."},
		{name: "destination", kind: kString, desc: "Destination airport code, e.g. 'LAX'."},
		{name: "date", kind: kString, desc: "Date as YYYY-MM-DD."},
	}
)

// airports is the fixed answer of list_all_airports (as in the official
// tool, including its "LaGuardia" city).
var airports = [][2]string{
	{"SFO", "San Francisco"}, {"JFK", "New York"}, {"LAX", "Los Angeles"}, {"ORD", "Chicago"},
	{"DFW", "Dallas"}, {"DEN", "Denver"}, {"SEA", "Seattle"}, {"ATL", "Atlanta"}, {"MIA", "Miami"},
	{"BOS", "Boston"}, {"PHX", "Phoenix"}, {"IAH", "Houston"}, {"LAS", "Las Vegas"}, {"MCO", "Orlando"},
	{"EWR", "Newark"}, {"CLT", "Charlotte"}, {"MSP", "Minneapolis"}, {"DTW", "Detroit"},
	{"PHL", "Philadelphia"}, {"LGA", "LaGuardia"},
}

func airlineTools() []*tool {
	return []*tool{
		{name: "book_reservation", desc: "Book a reservation. Needs explicit user confirmation first.",
			params: []param{
				{name: "user_id", kind: kString, desc: "User id, e.g. 'sara_doe_496'."},
				{name: "origin", kind: kString, desc: "Origin airport code."},
				{name: "destination", kind: kString, desc: "Destination airport code."},
				{name: "flight_type", kind: kString, enum: []string{"one_way", "round_trip"}},
				pCabin, pFlights, pPassengers,
				{name: "payment_methods", kind: kObjectList, desc: "Payments from the user profile.", items: []param{
					{name: "payment_id", kind: kString, desc: "Payment id."},
					{name: "amount", kind: kNumber, desc: "Amount paid with it."},
				}},
				{name: "total_baggages", kind: kInteger, desc: "Total checked bags."},
				{name: "nonfree_baggages", kind: kInteger, desc: "Checked bags that are paid for."},
				{name: "insurance", kind: kString, enum: []string{"yes", "no"}},
			},
			run: bookReservation},
		calculateTool(),
		{name: "cancel_reservation", desc: "Cancel a whole reservation and refund its payments.",
			params: []param{pResID},
			run: func(db *DB, a args) string {
				id := a.str("reservation_id")
				if !db.Has("reservations", id) {
					return "Error: reservation not found"
				}
				res := db.Mut("reservations", id)
				history := getArr(res, "payment_history")
				var refunds []Value
				for _, p := range history {
					pay := asObj(p, "payment")
					refunds = append(refunds, NewObject().Set("payment_id", get(pay, "payment_id")).Set("amount", getNum(pay, "amount").Neg()))
				}
				res.Set("payment_history", append(history, refunds...))
				res.Set("status", "cancelled")
				return Dumps(res)
			}},
		// The official tool answers "user not found" for a missing reservation.
		lookupTool("get_reservation_details", "Get the details of a reservation.", pResID, "reservations", "Error: user not found"),
		lookupTool("get_user_details", "Get a user's profile, including their reservations.",
			param{name: "user_id", kind: kString, desc: "User id."}, "users", "Error: user not found"),
		{name: "list_all_airports", desc: "List all airports and their cities.",
			run: func(*DB, args) string {
				o := NewObject()
				for _, ap := range airports {
					o.Set(ap[0], ap[1])
				}
				return Dumps(o)
			}},
		{name: "search_direct_flight", desc: "Search bookable direct flights between two airports on a date.",
			params: pSearch, run: searchDirectFlight},
		{name: "search_onestop_flight", desc: "Search bookable one-stop connections between two airports on a date.",
			params: pSearch, run: searchOnestopFlight},
		{name: "send_certificate", desc: "Add a travel certificate to a user's profile.",
			params: []param{{name: "user_id", kind: kString, desc: "User id."}, {name: "amount", kind: kNumber, desc: "Certificate amount."}},
			run: func(db *DB, a args) string {
				uid := a.str("user_id")
				if !db.Has("users", uid) {
					return "Error: user not found"
				}
				user := db.Mut("users", uid)
				pms := getObj(user, "payment_methods")
				// At most three certificates per task, with fixed ids.
				for _, n := range []string{"3221322", "3221323", "3221324"} {
					id := "certificate_" + n
					if !pms.Has(id) {
						pms.Set(id, NewObject().Set("source", "certificate").Set("amount", a.num("amount")).Set("id", id))
						return "Certificate " + id + " added to user " + uid + " with amount " + a.num("amount").String() + "."
					}
				}
				return "None"
			}},
		thinkTool(),
		transferTool(),
		{name: "update_reservation_baggages", desc: "Update the checked bags of a reservation. Needs explicit user confirmation first.",
			params: []param{pResID,
				{name: "total_baggages", kind: kInteger, desc: "New total of checked bags."},
				{name: "nonfree_baggages", kind: kInteger, desc: "New number of paid bags."},
				pAirPayment},
			run: updateReservationBaggages},
		{name: "update_reservation_flights", desc: "Replace the flights (and cabin) of a reservation; list every segment of the new itinerary. Needs explicit user confirmation first.",
			params: []param{pResID, pCabin, pFlights, pAirPayment},
			run:    updateReservationFlights},
		{name: "update_reservation_passengers", desc: "Replace the passengers of a reservation (same number). Needs explicit user confirmation first.",
			params: []param{pResID, pPassengers},
			run: func(db *DB, a args) string {
				id := a.str("reservation_id")
				if !db.Has("reservations", id) {
					return "Error: reservation not found"
				}
				res := db.Mut("reservations", id)
				if len(a.list("passengers")) != len(getArr(res, "passengers")) {
					return "Error: number of passengers does not match"
				}
				res.Set("passengers", a.list("passengers"))
				return Dumps(res)
			}},
	}
}

// flightPrice checks one requested segment against the flight table and
// prices it; msg is the official error text when it cannot be booked.
func flightPrice(db *DB, seg *Object, cabin string, seats int) (price Value, origin, dest Value, msg string) {
	num := getStr(seg, "flight_number")
	flight, ok := db.Row("flights", num)
	if !ok {
		return nil, nil, nil, "Error: flight " + num + " not found"
	}
	date := getStr(seg, "date")
	dv, ok := getObj(flight, "dates").Get(date)
	if !ok {
		return nil, nil, nil, "Error: flight " + num + " not found on date " + date
	}
	day := asObj(dv, "date")
	if getStr(day, "status") != "available" {
		return nil, nil, nil, "Error: flight " + num + " not available on date " + date
	}
	if getNum(getObj(day, "available_seats"), cabin).Less(Int(int64(seats))) {
		return nil, nil, nil, "Error: not enough seats on flight " + num
	}
	return get(getObj(day, "prices"), cabin), get(flight, "origin"), get(flight, "destination"), ""
}

func bookReservation(db *DB, a args) string {
	uid := a.str("user_id")
	if !db.Has("users", uid) {
		return "Error: user not found"
	}
	// The official tool assumes at most three bookings per task.
	resID := "HATHAT"
	if db.Has("reservations", resID) {
		resID = "HATHAU"
		if db.Has("reservations", resID) {
			resID = "HATHAV"
		}
	}
	cabin, passengers, payments := a.str("cabin"), a.list("passengers"), a.list("payment_methods")
	flights := a.list("flights")
	res := NewObject().
		Set("reservation_id", resID).Set("user_id", uid).
		Set("origin", a.str("origin")).Set("destination", a.str("destination")).
		Set("flight_type", a.str("flight_type")).Set("cabin", cabin).
		Set("flights", flights).Set("passengers", passengers).
		Set("payment_history", payments).Set("created_at", "2024-05-15T15:00:00").
		Set("total_baggages", a.num("total_baggages")).Set("nonfree_baggages", a.num("nonfree_baggages")).
		Set("insurance", a.str("insurance"))
	n := Int(int64(len(passengers)))
	total := Int(0)
	for _, f := range flights {
		seg := f.(*Object)
		price, origin, dest, msg := flightPrice(db, seg, cabin, len(passengers))
		if msg != "" {
			return msg
		}
		seg.Set("price", price).Set("origin", origin).Set("destination", dest)
		total = total.Add(asNum(price, "price").Mul(n))
	}
	if a.str("insurance") == "yes" {
		total = total.Add(Int(30).Mul(n))
	}
	total = total.Add(Int(50).Mul(a.num("nonfree_baggages")))
	user, _ := db.Row("users", uid)
	pms := getObj(user, "payment_methods")
	paid := Int(0)
	for _, p := range payments {
		pay := p.(*Object)
		pid, amount := getStr(pay, "payment_id"), getNum(pay, "amount")
		pv, ok := pms.Get(pid)
		if !ok {
			return "Error: payment method " + pid + " not found"
		}
		pm := asObj(pv, "payment method")
		if src := getStr(pm, "source"); src == "gift_card" || src == "certificate" {
			if getNum(pm, "amount").Less(amount) {
				return "Error: not enough balance in payment method " + pid
			}
		}
	}
	for _, p := range payments {
		paid = paid.Add(getNum(p.(*Object), "amount"))
	}
	if !paid.Equal(total) {
		return "Error: payment amount does not add up, total price is " + total.String() + ", but paid " + paid.String()
	}
	user = db.Mut("users", uid)
	pms = getObj(user, "payment_methods")
	for _, p := range payments {
		pay := p.(*Object)
		pid := getStr(pay, "payment_id")
		pm := getObj(pms, pid)
		switch getStr(pm, "source") {
		case "gift_card":
			pm.Set("amount", getNum(pm, "amount").Sub(getNum(pay, "amount")))
		case "certificate":
			pms.Delete(pid)
		}
	}
	db.Put("reservations", resID, res)
	user.Set("reservations", append(getArr(user, "reservations"), resID))
	return Dumps(res)
}

// flightResult is a flight without its dates, merged with one day's data.
func flightResult(flight, day *Object) *Object {
	r := NewObject()
	for _, k := range flight.Keys() {
		if k != "dates" {
			r.Set(k, Clone(flight.vals[k]))
		}
	}
	for _, k := range day.Keys() {
		r.Set(k, Clone(day.vals[k]))
	}
	return r
}

// availableDay returns the flight's data for date when it is bookable.
func availableDay(flight *Object, date string) *Object {
	v, ok := getObj(flight, "dates").Get(date)
	if !ok {
		return nil
	}
	day := asObj(v, "date")
	if getStr(day, "status") != "available" {
		return nil
	}
	return day
}

func searchDirectFlight(db *DB, a args) string {
	origin, dest, date := a.str("origin"), a.str("destination"), a.str("date")
	results := []Value{}
	db.Each("flights", func(_ string, f *Object) bool {
		if getStr(f, "origin") == origin && getStr(f, "destination") == dest {
			if day := availableDay(f, date); day != nil {
				results = append(results, flightResult(f, day))
			}
		}
		return true
	})
	return Dumps(results)
}

// nextDay is the official (unpadded, May-only) "+1 day" date.
func nextDay(date string) string {
	tail := date
	if len(tail) > 2 {
		tail = tail[len(tail)-2:]
	}
	d, err := strconv.Atoi(strings.TrimSpace(tail))
	if err != nil {
		raise("invalid literal for int() with base 10: %s", pyRepr(tail))
	}
	return "2024-05-" + strconv.Itoa(d+1)
}

func searchOnestopFlight(db *DB, a args) string {
	origin, dest, date := a.str("origin"), a.str("destination"), a.str("date")
	results := []Value{}
	db.Each("flights", func(_ string, f1 *Object) bool {
		if getStr(f1, "origin") != origin {
			return true
		}
		db.Each("flights", func(_ string, f2 *Object) bool {
			if getStr(f2, "destination") != dest || getStr(f1, "destination") != getStr(f2, "origin") {
				return true
			}
			arrive := getStr(f1, "scheduled_arrival_time_est")
			date2 := date
			if strings.Contains(arrive, "+1") {
				date2 = nextDay(date)
			}
			if arrive > getStr(f2, "scheduled_departure_time_est") {
				return true
			}
			d1, d2 := availableDay(f1, date), availableDay(f2, date2)
			if d1 == nil || d2 == nil {
				return true
			}
			// The official tool merges the second leg with the first leg's
			// date entry (a quirk kept here), then sets date2.
			day2, ok := getObj(f2, "dates").Get(date)
			r1 := flightResult(f1, d1).Set("date", date)
			r2 := NewObject()
			if ok {
				r2 = flightResult(f2, asObj(day2, "date"))
			} else {
				keyErr(date)
			}
			r2.Set("date", date2)
			results = append(results, []Value{r1, r2})
			return true
		})
		return true
	})
	return Dumps(results)
}

// paymentForUpdate checks a payment method for a baggage or flight change.
func paymentForUpdate(db *DB, res *Object, pid string, total Num) (*Object, string) {
	uid := getStr(res, "user_id")
	if !db.Has("users", uid) {
		keyErr(uid)
	}
	user := db.Mut("users", uid)
	pv, ok := getObj(user, "payment_methods").Get(pid)
	if !ok {
		return nil, "Error: payment method not found"
	}
	pm := asObj(pv, "payment method")
	switch getStr(pm, "source") {
	case "certificate":
		return nil, "Error: certificate cannot be used to update reservation"
	case "gift_card":
		if getNum(pm, "amount").Less(total) {
			return nil, "Error: gift card balance is not enough"
		}
	}
	return pm, ""
}

func updateReservationBaggages(db *DB, a args) string {
	id := a.str("reservation_id")
	if !db.Has("reservations", id) {
		return "Error: reservation not found"
	}
	res := db.Mut("reservations", id)
	extra := a.num("nonfree_baggages").Sub(getNum(res, "nonfree_baggages"))
	if !Int(0).Less(extra) { // Python's max(0, x) keeps the int 0 on ties
		extra = Int(0)
	}
	total := Int(50).Mul(extra)
	pid := a.str("payment_id")
	pm, msg := paymentForUpdate(db, res, pid, total)
	if msg != "" {
		return msg
	}
	res.Set("total_baggages", a.num("total_baggages"))
	res.Set("nonfree_baggages", a.num("nonfree_baggages"))
	if getStr(pm, "source") == "gift_card" {
		pm.Set("amount", getNum(pm, "amount").Sub(total))
	}
	if !total.Equal(Int(0)) {
		res.Set("payment_history", append(getArr(res, "payment_history"), NewObject().Set("payment_id", pid).Set("amount", total)))
	}
	return Dumps(res)
}

func updateReservationFlights(db *DB, a args) string {
	id := a.str("reservation_id")
	if !db.Has("reservations", id) {
		return "Error: reservation not found"
	}
	res := db.Mut("reservations", id)
	cabin := a.str("cabin")
	n := Int(int64(len(getArr(res, "passengers"))))
	old := getArr(res, "flights")
	sameCabin := Equal(get(res, "cabin"), cabin)
	total := Int(0)
	flights := a.list("flights")
	for _, f := range flights {
		seg := f.(*Object)
		// A segment already in the reservation (same cabin) keeps its price.
		var kept *Object
		if sameCabin {
			for _, of := range old {
				o := asObj(of, "flight")
				if Equal(get(o, "flight_number"), get(seg, "flight_number")) && Equal(get(o, "date"), get(seg, "date")) {
					kept = o
					break
				}
			}
		}
		if kept != nil {
			total = total.Add(getNum(kept, "price").Mul(n))
			seg.Set("price", get(kept, "price")).Set("origin", get(kept, "origin")).Set("destination", get(kept, "destination"))
			continue
		}
		price, origin, dest, msg := flightPrice(db, seg, cabin, int(n.I))
		if msg != "" {
			return msg
		}
		seg.Set("price", price).Set("origin", origin).Set("destination", dest)
		total = total.Add(asNum(price, "price").Mul(n))
	}
	oldSum := Int(0)
	for _, of := range old {
		oldSum = oldSum.Add(getNum(asObj(of, "flight"), "price"))
	}
	total = total.Sub(oldSum.Mul(n))
	pid := a.str("payment_id")
	pm, msg := paymentForUpdate(db, res, pid, total)
	if msg != "" {
		return msg
	}
	if getStr(pm, "source") == "gift_card" {
		pm.Set("amount", getNum(pm, "amount").Sub(total))
	}
	// As in the official tool, the cabin itself is not updated.
	res.Set("flights", flights)
	if !total.Equal(Int(0)) {
		res.Set("payment_history", append(getArr(res, "payment_history"), NewObject().Set("payment_id", pid).Set("amount", total)))
	}
	return Dumps(res)
}
