package apibank

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/memharness/memharness/internal/pystr"
)

// Hospital appointments, health records and symptom look-ups.

// fmtDate is the reference's format_check for dates and times: trim, pad a
// short year to four digits, parse and re-format. ok=false stands for the
// exception object upstream keeps in its place (equal to nothing).
type fmtDate struct {
	s   string
	err error
}

func (f fmtDate) equal(o fmtDate) bool { return f.err == nil && o.err == nil && f.s == o.s }

func normalizeDate(s, layout string) fmtDate {
	s = pystr.Strip(s)
	if parts := strings.Split(s, "-"); len(parts) == 3 {
		if len([]rune(parts[0])) != 4 {
			parts[0] = zfill(parts[0], 4)
		}
		s = strings.Join(parts, "-")
	}
	t, err := strptime(s, layout)
	if err != nil {
		return fmtDate{err: err}
	}
	return fmtDate{s: strftime(t, layout)}
}

// normalizeTime is normalizeDate for date-times, keeping the parsed time.
func normalizeTime(s string) (time.Time, error) {
	s = pystr.Strip(s)
	if parts := strings.Split(s, "-"); len(parts) == 3 {
		if len([]rune(parts[0])) != 4 {
			parts[0] = zfill(parts[0], 4)
		}
		s = strings.Join(parts, "-")
	}
	return strptime(s, layoutDateTime)
}

// zfill is Python's str.zfill (a leading sign stays in front).
func zfill(s string, width int) string {
	r := []rune(s)
	if len(r) >= width {
		return s
	}
	pad := strings.Repeat("0", width-len(r))
	if len(r) > 0 && (r[0] == '+' || r[0] == '-') {
		return string(r[0]) + pad + string(r[1:])
	}
	return pad + s
}

func appointmentRegistration(_ context.Context, m *manager, a kwargs) (any, error) {
	patient, doctor := pystr.Strip(a.str("patient_name")), pystr.Strip(a.str("doctor_name"))
	if patient == "" || doctor == "" {
		return nil, raise("Patient name or doctor name cannot be empty.")
	}
	date := normalizeDate(a.str("date"), layoutDate)
	if date.err != nil {
		return nil, raise("%s", date.err.Error())
	}
	db := m.db("Appointments")
	for _, k := range db.Keys() {
		rec, _ := mustGet(db, k).(*Dict)
		if rec == nil || !fieldIs(rec, "patient_name", patient) {
			continue
		}
		if normalizeDate(rec.Str("date"), layoutDate).equal(date) {
			if fieldIs(rec, "doctor_name", doctor) {
				return nil, raise("This appointment has already been registered.")
			}
			return nil, raise("This patient has already been registered in this day.")
		}
	}
	id := strconv.Itoa(10000000 + m.rng.Intn(90000000))
	for db.Has(id) {
		id = strconv.Itoa(10000000 + m.rng.Intn(90000000))
	}
	db.Set(id, dictOf("patient_name", patient, "date", date.s, "doctor_name", doctor))
	return id, nil
}

func cancelRegistration(_ context.Context, m *manager, a kwargs) (any, error) {
	id := pystr.Strip(a.str("appointment_id"))
	db := m.db("Appointments")
	if !db.Has(id) {
		return nil, raise("The appointment ID is incorrect.")
	}
	db.Delete(id)
	return "success", nil
}

func modifyRegistration(_ context.Context, m *manager, a kwargs) (any, error) {
	id := pystr.Strip(a.str("appointment_id"))
	db := m.db("Appointments")
	rec, _ := mustGet(db, id).(*Dict)
	if !db.Has(id) {
		return nil, raise("The appointment ID does not exist.")
	}
	_, hasDate := a.get("new_appointment_date")
	_, hasDoc := a.get("new_appointment_doctor")
	var date fmtDate
	if hasDate {
		date = normalizeDate(a.str("new_appointment_date"), layoutDate)
	}
	doctor := pystr.Strip(a.str("new_appointment_doctor"))
	if hasDoc && doctor == "" {
		return nil, raise("Fail because the doctor name is empty.")
	}
	if hasDate && date.err != nil {
		return nil, raise("%s", date.err.Error())
	}
	sameDate := hasDate && fieldIs(rec, "date", date.s)
	sameDoc := hasDoc && fieldIs(rec, "doctor_name", doctor)
	switch {
	case !hasDate && !hasDoc:
		return nil, raise("Fail because no modification is made.")
	case !hasDate:
		if sameDoc {
			return nil, raise("Fail because doctor is not changed.")
		}
		rec.Set("doctor_name", doctor)
	case !hasDoc:
		if sameDate {
			return nil, raise("Fail because date is not changed.")
		}
		rec.Set("date", date.s)
	default:
		switch {
		case sameDate && sameDoc:
			return nil, raise("Fail because no modification is made.")
		case sameDate:
			return nil, raise("Fail because date is not changed.")
		case sameDoc:
			return nil, raise("Fail because doctor is not changed.")
		}
		rec.Set("date", date.s)
		rec.Set("doctor_name", doctor)
	}
	return "success", nil
}

func queryRegistration(_ context.Context, m *manager, a kwargs) (any, error) {
	patient := pystr.Strip(a.str("patient_name"))
	date := normalizeDate(a.str("date"), layoutDate)
	if date.err != nil {
		return nil, raise("%s", date.err.Error())
	}
	db := m.db("Appointments")
	out := NewDict()
	for _, k := range db.Keys() {
		rec, _ := mustGet(db, k).(*Dict)
		if rec != nil && fieldIs(rec, "patient_name", patient) && normalizeDate(rec.Str("date"), layoutDate).equal(date) {
			out.Set(k, rec)
		}
	}
	if out.Len() == 0 {
		return nil, raise("No appointments found.")
	}
	return out, nil
}

func queryHealthData(_ context.Context, m *manager, a kwargs) (any, error) {
	user := pystr.Upper(pystr.Strip(a.str("user_id")))
	start, errS := normalizeTime(a.str("start_time"))
	end, errE := normalizeTime(a.str("end_time"))
	switch {
	case user == "":
		return nil, raise("The user id cannot be empty.")
	case errS != nil && errE != nil:
		return nil, raise("%s; %s", errS, errE)
	case errS != nil:
		return nil, raise("%s", errS)
	case errE != nil:
		return nil, raise("%s", errE)
	case start.After(end):
		return nil, raise("The start time cannot be later than the end time.")
	}
	recs, ok := m.db("HealthData").Get(user)
	if !ok {
		return nil, raise("The user id does not exist.")
	}
	list, _ := recs.([]any)
	out := []any{}
	for _, r := range list {
		rec, _ := r.(*Dict)
		t, err := strptime(rec.Str("time"), layoutDateTime)
		if err != nil {
			return nil, raise("%s", err)
		}
		if !t.Before(start) && !t.After(end) {
			out = append(out, rec)
		}
	}
	if len(out) == 0 {
		return nil, raise("There is no health data in the given time span.")
	}
	return out, nil
}

func recordHealthData(_ context.Context, m *manager, a kwargs) (any, error) {
	user := pystr.Upper(pystr.Strip(a.str("user_id")))
	if user == "" {
		return nil, raise("The user id cannot be empty.")
	}
	t := normalizeDate(a.str("time"), layoutDateTime)
	if t.err != nil {
		return nil, raise("%s", t.err.Error())
	}
	raw, _ := a.get("health_data")
	items, _ := raw.([]any)
	if len(items) == 0 {
		return nil, raise("The health data cannot be empty.")
	}
	seen := map[string]bool{}
	for _, it := range items {
		d, ok := it.(*Dict)
		if !ok || !d.Has("name") {
			return nil, raise("The health data has invalid format.")
		}
		key := pyRepr(mustGet(d, "name"))
		if seen[key] {
			return nil, raise("The health data cannot contain duplicate items.")
		}
		seen[key] = true
	}
	db := m.db("HealthData")
	if !db.Has(user) {
		db.Set(user, []any{})
	}
	recs, _ := mustGet(db, user).([]any)
	var target *Dict
	for _, r := range recs {
		if rec, _ := r.(*Dict); rec != nil && fieldIs(rec, "time", t.s) {
			target = rec
		}
	}
	fresh := target == nil
	if fresh {
		target = dictOf("time", t.s)
	}
	for _, it := range items {
		d := it.(*Dict)
		v, ok := d.Get("value")
		if !ok {
			return nil, raise("'value'")
		}
		target.Set(dictKeyFor(mustGet(d, "name")), v)
	}
	if fresh {
		db.Set(user, append(recs, target))
	}
	return "success", nil
}

// dictKeyFor turns a Python value used as a dict key into one of ours.
func dictKeyFor(v any) any {
	switch v := v.(type) {
	case string, int64:
		return v
	}
	return pyRepr(v)
}

func symptomLookup(m *manager, symptom string, field string) (any, error) {
	s := stripLower(symptom)
	recs, ok := m.db("Symptom").Get(s)
	if !ok {
		return nil, raise("The symptom does not exist.")
	}
	list, _ := recs.([]any)
	out := []any{}
	for _, r := range list {
		rec, _ := r.(*Dict)
		if rec == nil || !rec.Has("name") || !rec.Has(field) {
			return nil, raise("'%s'", field)
		}
		out = append(out, dictOf("name", mustGet(rec, "name"), field, mustGet(rec, field)))
	}
	return out, nil
}

func symptomSearch(_ context.Context, m *manager, a kwargs) (any, error) {
	if stripLower(a.str("symptom")) == "" {
		return nil, raise("The symptom cannot be empty.")
	}
	return symptomLookup(m, a.str("symptom"), "description")
}

func emergencyKnowledge(_ context.Context, m *manager, a kwargs) (any, error) {
	if pystr.Strip(a.str("symptom")) == "" {
		// Upstream builds an Exception and then calls .lower() on it.
		return nil, raise("'Exception' object has no attribute 'lower'")
	}
	return symptomLookup(m, a.str("symptom"), "aid")
}
