package taubench

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
				if !tblHas(db, "reservations", a["reservation_id"]) {
					return "Error: reservation not found"
				}
				res := row(db, "reservations", a["reservation_id"], true)
				var refunds []Value
				for _, p := range pyIter(pyGet(res, "payment_history")) {
					refunds = append(refunds, NewObject().Set("payment_id", pyGet(p, "payment_id")).Set("amount", pyNeg(pyGet(p, "amount"))))
				}
				appendTo(res, "payment_history", "extend", refunds...)
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
				uid := a["user_id"]
				if !tblHas(db, "users", uid) {
					return "Error: user not found"
				}
				pms := pyGet(row(db, "users", uid, true), "payment_methods")
				// At most three certificates per task, with fixed ids.
				for _, n := range []string{"3221322", "3221323", "3221324"} {
					id := "certificate_" + n
					if !pyIn(id, pms) {
						pySet(pms, id, NewObject().Set("source", "certificate").Set("amount", a["amount"]).Set("id", id))
						return "Certificate " + id + " added to user " + pyStr(uid) + " with amount " + pyStr(a["amount"]) + "."
					}
				}
				// The official function then falls off its end; env.step
				// passes the None on as the observation.
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
				if !tblHas(db, "reservations", a["reservation_id"]) {
					return "Error: reservation not found"
				}
				res := row(db, "reservations", a["reservation_id"], true)
				if pyLen(a["passengers"]) != pyLen(pyGet(res, "passengers")) {
					return "Error: number of passengers does not match"
				}
				res.Set("passengers", a["passengers"])
				return Dumps(res)
			}},
	}
}

// priceSegment is the official checks and pricing of one new segment
// against the flight table: it sets the segment's price, origin and
// destination and returns the price, or returns the error text.
func priceSegment(db *DB, flight Value, cabin Value, seats func() int) (Value, string) {
	num := pyGet(flight, "flight_number")
	if !tblHas(db, "flights", num) {
		return nil, "Error: flight " + pyStr(num) + " not found"
	}
	fd := row(db, "flights", num, false)
	if !pyIn(pyGet(flight, "date"), pyGet(fd, "dates")) {
		return nil, "Error: flight " + pyStr(num) + " not found on date " + pyStr(pyGet(flight, "date"))
	}
	day := pyGet(pyGet(fd, "dates"), pyGet(flight, "date"))
	if !pyEq(pyGet(day, "status"), "available") {
		return nil, "Error: flight " + pyStr(num) + " not available on date " + pyStr(pyGet(flight, "date"))
	}
	if pyLt(pyGet(pyGet(day, "available_seats"), cabin), Int(int64(seats()))) {
		return nil, "Error: not enough seats on flight " + pyStr(num)
	}
	pySet(flight, "price", pyGet(pyGet(day, "prices"), cabin))
	pySet(flight, "origin", pyGet(fd, "origin"))
	pySet(flight, "destination", pyGet(fd, "destination"))
	return pyGet(flight, "price"), ""
}

func bookReservation(db *DB, a args) string {
	uid := a["user_id"]
	if !tblHas(db, "users", uid) {
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
	passengers, payments := a["passengers"], a["payment_methods"]
	res := NewObject().
		Set("reservation_id", resID).Set("user_id", uid).
		Set("origin", a["origin"]).Set("destination", a["destination"]).
		Set("flight_type", a["flight_type"]).Set("cabin", a["cabin"]).
		Set("flights", Clone(a["flights"])).Set("passengers", passengers).
		Set("payment_history", payments).Set("created_at", "2024-05-15T15:00:00").
		Set("total_baggages", a["total_baggages"]).Set("nonfree_baggages", a["nonfree_baggages"]).
		Set("insurance", a["insurance"])
	var total Value = Int(0)
	for _, f := range pyIter(res.vals["flights"]) {
		price, msg := priceSegment(db, f, a["cabin"], func() int { return pyLen(passengers) })
		if msg != "" {
			return msg
		}
		total = pyAdd(total, pyMul(price, Int(int64(pyLen(passengers)))), "+=")
	}
	if pyEq(a["insurance"], "yes") {
		total = pyAdd(total, pyMul(Int(30), Int(int64(pyLen(passengers)))), "+=")
	}
	total = pyAdd(total, pyMul(Int(50), a["nonfree_baggages"]), "+=")
	user := row(db, "users", uid, false)
	for _, p := range pyIter(payments) {
		pid, amount := pyGet(p, "payment_id"), pyGet(p, "amount")
		if !pyIn(pid, pyGet(user, "payment_methods")) {
			return "Error: payment method " + pyStr(pid) + " not found"
		}
		pm := pyGet(pyGet(user, "payment_methods"), pid)
		if pyIn(pyGet(pm, "source"), []Value{"gift_card", "certificate"}) {
			if pyLt(pyGet(pm, "amount"), amount) {
				return "Error: not enough balance in payment method " + pyStr(pid)
			}
		}
	}
	var amounts []Value
	for _, p := range pyIter(payments) {
		amounts = append(amounts, pyGet(p, "amount"))
	}
	paid := pySum(amounts)
	if !pyEq(paid, total) {
		return "Error: payment amount does not add up, total price is " + pyStr(total) + ", but paid " + pyStr(pySum(amounts))
	}
	user = row(db, "users", uid, true)
	pms := pyGet(user, "payment_methods")
	for _, p := range pyIter(payments) {
		pid, amount := pyGet(p, "payment_id"), pyGet(p, "amount")
		pm := pyGet(pms, pid)
		switch {
		case pyEq(pyGet(pm, "source"), "gift_card"):
			pySet(pm, "amount", pySub(pyGet(pm, "amount"), amount, "-="))
		case pyEq(pyGet(pm, "source"), "certificate"):
			pyDel(pms, pid)
		}
	}
	db.Put("reservations", resID, res)
	appendTo(user, "reservations", "append", resID)
	return Dumps(res)
}

// pyDel is del o[k].
func pyDel(o, k Value) {
	pyGet(o, k)
	o.(*Object).Delete(k.(string))
}

// flightResult is {k: v for k, v in flight.items() if k != "dates"}
// updated with one day's data.
func flightResult(flight *Object, day Value) *Object {
	r := NewObject()
	for _, k := range flight.Keys() {
		if k != "dates" {
			r.Set(k, flight.vals[k])
		}
	}
	d, ok := day.(*Object)
	if !ok {
		raise("'%s' object is not iterable", typeName(day))
	}
	for _, k := range d.Keys() {
		r.Set(k, d.vals[k])
	}
	return r
}

func searchDirectFlight(db *DB, a args) string {
	origin, dest, date := a["origin"], a["destination"], a["date"]
	results := []Value{}
	db.Each("flights", func(_ string, f *Object) bool {
		if pyEq(pyGet(f, "origin"), origin) && pyEq(pyGet(f, "destination"), dest) {
			if pyIn(date, pyGet(f, "dates")) && pyEq(pyGet(pyGet(pyGet(f, "dates"), date), "status"), "available") {
				results = append(results, flightResult(f, pyGet(pyGet(f, "dates"), date)))
			}
		}
		return true
	})
	return Dumps(results)
}

// nextDate is the official f"2024-05-{int(date[-2:])+1}".
func nextDate(date Value) string {
	var tail Value
	switch d := date.(type) {
	case string:
		rs := []rune(d)
		if len(rs) > 2 {
			rs = rs[len(rs)-2:]
		}
		tail = string(rs)
	case []Value:
		if len(d) > 2 {
			d = d[len(d)-2:]
		}
		tail = d
	case *Object:
		raise("unhashable type: 'slice'")
	default:
		raise("'%s' object is not subscriptable", typeName(date))
	}
	return "2024-05-" + pyInt(tail).Add(Int(1)).String()
}

func searchOnestopFlight(db *DB, a args) string {
	origin, dest, date := a["origin"], a["destination"], a["date"]
	results := []Value{}
	db.Each("flights", func(_ string, f1 *Object) bool {
		if !pyEq(pyGet(f1, "origin"), origin) {
			return true
		}
		db.Each("flights", func(_ string, f2 *Object) bool {
			if !(pyEq(pyGet(f2, "destination"), dest) && pyEq(pyGet(f1, "destination"), pyGet(f2, "origin"))) {
				return true
			}
			var date2 Value = date
			if pyIn("+1", pyGet(f1, "scheduled_arrival_time_est")) {
				date2 = nextDate(date)
			}
			if pyGt(pyGet(f1, "scheduled_arrival_time_est"), pyGet(f2, "scheduled_departure_time_est")) {
				return true
			}
			if pyIn(date, pyGet(f1, "dates")) && pyIn(date2, pyGet(f2, "dates")) {
				if pyEq(pyGet(pyGet(pyGet(f1, "dates"), date), "status"), "available") &&
					pyEq(pyGet(pyGet(pyGet(f2, "dates"), date2), "status"), "available") {
					r1 := flightResult(f1, pyGet(pyGet(f1, "dates"), date))
					r1.Set("date", date)
					// The official tool merges the second leg with the
					// first leg's date entry (a quirk kept here).
					r2 := flightResult(f2, pyGet(pyGet(f2, "dates"), date))
					r2.Set("date", date2)
					results = append(results, []Value{r1, r2})
				}
			}
			return true
		})
		return true
	})
	return Dumps(results)
}

// paymentCheck is the payment part shared by the baggage and flight
// updates: the payment method to charge, or the error text.
func paymentCheck(db *DB, res *Object, pid Value, total Value) (Value, string) {
	uid := pyGet(res, "user_id")
	if !pyIn(pid, pyGet(row(db, "users", uid, false), "payment_methods")) {
		return nil, "Error: payment method not found"
	}
	pm := pyGet(pyGet(row(db, "users", uid, true), "payment_methods"), pid)
	if pyEq(pyGet(pm, "source"), "certificate") {
		return nil, "Error: certificate cannot be used to update reservation"
	} else if pyEq(pyGet(pm, "source"), "gift_card") && pyLt(pyGet(pm, "amount"), total) {
		return nil, "Error: gift card balance is not enough"
	}
	return pm, ""
}

func updateReservationBaggages(db *DB, a args) string {
	if !tblHas(db, "reservations", a["reservation_id"]) {
		return "Error: reservation not found"
	}
	res := row(db, "reservations", a["reservation_id"], true)
	total := pyMul(Int(50), pyMax0(pySub(a["nonfree_baggages"], pyGet(res, "nonfree_baggages"), "-")))
	pm, msg := paymentCheck(db, res, a["payment_id"], total)
	if msg != "" {
		return msg
	}
	res.Set("total_baggages", a["total_baggages"])
	res.Set("nonfree_baggages", a["nonfree_baggages"])
	if pyEq(pyGet(pm, "source"), "gift_card") {
		pySet(pm, "amount", pySub(pyGet(pm, "amount"), total, "-="))
	}
	if !pyEq(total, Int(0)) {
		appendTo(res, "payment_history", "append", NewObject().Set("payment_id", a["payment_id"]).Set("amount", total))
	}
	return Dumps(res)
}

func updateReservationFlights(db *DB, a args) string {
	if !tblHas(db, "reservations", a["reservation_id"]) {
		return "Error: reservation not found"
	}
	res := row(db, "reservations", a["reservation_id"], true)
	cabin := a["cabin"]
	var total Value = Int(0)
	flights := Clone(a["flights"])
	for _, f := range pyIter(flights) {
		// A segment already in the reservation (same cabin) keeps its price.
		var kept []Value
		for _, of := range pyIter(pyGet(res, "flights")) {
			if pyEq(pyGet(of, "flight_number"), pyGet(f, "flight_number")) &&
				pyEq(pyGet(of, "date"), pyGet(f, "date")) && pyEq(cabin, pyGet(res, "cabin")) {
				kept = append(kept, of)
			}
		}
		if len(kept) > 0 {
			total = pyAdd(total, pyMul(pyGet(kept[0], "price"), Int(int64(pyLen(pyGet(res, "passengers"))))), "+=")
			pySet(f, "price", pyGet(kept[0], "price"))
			pySet(f, "origin", pyGet(kept[0], "origin"))
			pySet(f, "destination", pyGet(kept[0], "destination"))
			continue
		}
		price, msg := priceSegment(db, f, cabin, func() int { return pyLen(pyGet(res, "passengers")) })
		if msg != "" {
			return msg
		}
		total = pyAdd(total, pyMul(price, Int(int64(pyLen(pyGet(res, "passengers"))))), "+=")
	}
	var old []Value
	for _, of := range pyIter(pyGet(res, "flights")) {
		old = append(old, pyGet(of, "price"))
	}
	total = pySub(total, pyMul(pySum(old), Int(int64(pyLen(pyGet(res, "passengers"))))), "-=")
	pm, msg := paymentCheck(db, res, a["payment_id"], total)
	if msg != "" {
		return msg
	}
	if pyEq(pyGet(pm, "source"), "gift_card") {
		pySet(pm, "amount", pySub(pyGet(pm, "amount"), total, "-="))
	}
	// As in the official tool, the cabin itself is not updated.
	res.Set("flights", flights)
	if !pyEq(total, Int(0)) {
		appendTo(res, "payment_history", "append", NewObject().Set("payment_id", a["payment_id"]).Set("amount", total))
	}
	return Dumps(res)
}
