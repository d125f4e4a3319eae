package apibank

import (
	"context"
	"strconv"

	"github.com/memharness/memharness/internal/pyfmt"
	"github.com/memharness/memharness/internal/pystr"
)

// Agenda, alarm, reminder and meeting APIs. Records are keyed by id and carry
// the owner's username; the token names the owner. Matching and error texts
// follow the reference, including its quirks (e.g. DeleteAgenda says
// "meeting", an unmatched DeleteAgenda with empty content and time succeeds).

// checkDT validates a "%Y-%m-%d %H:%M:%S" time like strptime would.
func checkDT(s string) error {
	if _, err := strptime(s, layoutDateTime); err != nil {
		return raise("%s", err.Error())
	}
	return nil
}

// findRecord returns the key of the first record of user matching pred.
func findRecord(db *Dict, user string, pred func(*Dict) bool) (any, *Dict) {
	for _, k := range db.Keys() {
		rec, _ := mustGet(db, k).(*Dict)
		if rec != nil && pyEqual(mustGet(rec, "username"), user) && pred(rec) {
			return k, rec
		}
	}
	return nil, nil
}

func fieldIs(rec *Dict, field string, v any) bool { return pyEqual(mustGet(rec, field), v) }

// nextID is max(int(key)) + 1 over the keys, 0 when empty.
func nextID(db *Dict) (int64, error) {
	id := int64(-1)
	for _, k := range db.Keys() {
		var n int64
		switch k := k.(type) {
		case int64:
			n = k
		case string:
			v, err := strconv.ParseInt(pystr.Strip(k), 10, 64)
			if err != nil {
				return 0, raise("invalid literal for int() with base 10: %s", pyfmt.Str(k))
			}
			n = v
		}
		if n > id {
			id = n
		}
	}
	return id + 1, nil
}

func addAgenda(_ context.Context, m *manager, a kwargs) (any, error) {
	if err := checkDT(a.str("time")); err != nil {
		return nil, err
	}
	if pystr.Strip(a.str("content")) == "" {
		return nil, raise("Content should not be null")
	}
	db := m.db("Agenda")
	id := int64(db.Len() + 1)
	u, err := m.checkToken(a.str("token"))
	if err != nil {
		return nil, err
	}
	db.Set(id, dictOf("username", u, "content", a.str("content"), "time", a.str("time"), "location", a.str("location")))
	return "success", nil
}

func agendaMatch(a kwargs) func(*Dict) bool {
	return func(r *Dict) bool {
		return fieldIs(r, "content", a.str("content")) || fieldIs(r, "time", a.str("time"))
	}
}

func deleteAgenda(_ context.Context, m *manager, a kwargs) (any, error) {
	if t := a.str("time"); t != "" {
		if err := checkDT(t); err != nil {
			return nil, err
		}
	}
	u, err := m.checkToken(a.str("token"))
	if err != nil {
		return nil, err
	}
	db := m.db("Agenda")
	if k, _ := findRecord(db, u, agendaMatch(a)); k != nil {
		db.Delete(k)
		return "success", nil
	}
	if c := a.str("content"); c != "" {
		return nil, raise("You have no meeting about %s", c)
	}
	if t := a.str("time"); t != "" {
		return nil, raise("You have no meeting at time : %s", t)
	}
	return "success", nil
}

func modifyAgenda(_ context.Context, m *manager, a kwargs) (any, error) {
	if t := a.str("time"); t != "" {
		if err := checkDT(t); err != nil {
			return nil, err
		}
	}
	u, err := m.checkToken(a.str("token"))
	if err != nil {
		return nil, err
	}
	db := m.db("Agenda")
	if k, _ := findRecord(db, u, agendaMatch(a)); k != nil {
		db.Set(k, dictOf("username", u, "content", a.str("content"), "time", a.str("time"), "location", a.str("location")))
		return "success", nil
	}
	if c := a.str("content"); c != "" {
		return nil, raise("You have no agenda about %s", c)
	}
	if t := a.str("time"); t != "" {
		return nil, raise("You have no agenda at time : %s", t)
	}
	return pyExc("Error"), nil
}

func queryAgenda(_ context.Context, m *manager, a kwargs) (any, error) {
	if t := a.str("time"); t != "" {
		if err := checkDT(t); err != nil {
			return nil, err
		}
	}
	u, err := m.checkToken(a.str("token"))
	if err != nil {
		return nil, err
	}
	if _, rec := findRecord(m.db("Agenda"), u, agendaMatch(a)); rec != nil {
		return rec, nil
	}
	if c := a.str("content"); c != "" {
		return nil, raise("You have no agenda about %s", c)
	}
	if t := a.str("time"); t != "" {
		return nil, raise("You have no agenda at time : %s", t)
	}
	return nil, raise("Error")
}

func addAlarm(_ context.Context, m *manager, a kwargs) (any, error) {
	if err := checkDT(a.str("time")); err != nil {
		return nil, err
	}
	db := m.db("Alarm")
	id := int64(db.Len() + 1)
	u, err := m.checkToken(a.str("token"))
	if err != nil {
		return nil, err
	}
	db.Set(id, dictOf("username", u, "time", a.str("time")))
	return "success", nil
}

func alarmAt(t string) func(*Dict) bool {
	return func(r *Dict) bool { return fieldIs(r, "time", t) }
}

func deleteAlarm(_ context.Context, m *manager, a kwargs) (any, error) {
	t := a.str("time")
	if err := checkDT(t); err != nil {
		return nil, err
	}
	u, err := m.checkToken(a.str("token"))
	if err != nil {
		return nil, err
	}
	db := m.db("Alarm")
	if k, _ := findRecord(db, u, alarmAt(t)); k != nil {
		db.Delete(k)
		return "success", nil
	}
	return nil, raise("You have no alarm clock at time : %s", t)
}

func modifyAlarm(_ context.Context, m *manager, a kwargs) (any, error) {
	from, to := a.str("from_time"), a.str("to_time")
	if err := checkDT(from); err != nil {
		return nil, err
	}
	if err := checkDT(to); err != nil {
		return nil, err
	}
	u, err := m.checkToken(a.str("token"))
	if err != nil {
		return nil, err
	}
	db := m.db("Alarm")
	if k, _ := findRecord(db, u, alarmAt(from)); k != nil {
		db.Set(k, dictOf("username", u, "time", to))
		return "success", nil
	}
	return nil, raise("You have no agenda at time : %s", from)
}

func queryAlarm(_ context.Context, m *manager, a kwargs) (any, error) {
	t := a.str("time")
	if err := checkDT(t); err != nil {
		return nil, err
	}
	u, err := m.checkToken(a.str("token"))
	if err != nil {
		return nil, err
	}
	if _, rec := findRecord(m.db("Alarm"), u, alarmAt(t)); rec != nil {
		return rec, nil
	}
	return nil, raise("You have no alarm clock at time : %s", t)
}

// reminderPrep runs the checks every reminder API starts with.
func reminderPrep(m *manager, a kwargs) (string, error) {
	if err := checkDT(a.str("time")); err != nil {
		return "", err
	}
	if pystr.Strip(a.str("content")) == "" {
		return "", raise("Content should not be null")
	}
	return "", nil
}

func reminderMissing(a kwargs) error {
	return raise("You have no reminder about %s or at time : %s", a.str("content"), a.str("time"))
}

func addReminder(_ context.Context, m *manager, a kwargs) (any, error) {
	if _, err := reminderPrep(m, a); err != nil {
		return nil, err
	}
	db := m.db("Reminder")
	id, err := nextID(db)
	if err != nil {
		return nil, err
	}
	u, err := m.checkToken(a.str("token"))
	if err != nil {
		return nil, err
	}
	db.Set(strconv.FormatInt(id, 10), dictOf("username", u, "content", a.str("content"), "time", a.str("time")))
	return "success", nil
}

func deleteReminder(_ context.Context, m *manager, a kwargs) (any, error) {
	if _, err := reminderPrep(m, a); err != nil {
		return nil, err
	}
	u, err := m.checkToken(a.str("token"))
	if err != nil {
		return nil, err
	}
	db := m.db("Reminder")
	if k, _ := findRecord(db, u, agendaMatch(a)); k != nil {
		db.Delete(k)
		return "success", nil
	}
	return nil, reminderMissing(a)
}

func modifyReminder(_ context.Context, m *manager, a kwargs) (any, error) {
	if _, err := reminderPrep(m, a); err != nil {
		return nil, err
	}
	u, err := m.checkToken(a.str("token"))
	if err != nil {
		return nil, err
	}
	if _, rec := findRecord(m.db("Reminder"), u, agendaMatch(a)); rec != nil {
		rec.Set("content", a.str("content"))
		rec.Set("time", a.str("time"))
		return "success", nil
	}
	return nil, reminderMissing(a)
}

func queryReminder(_ context.Context, m *manager, a kwargs) (any, error) {
	if _, err := reminderPrep(m, a); err != nil {
		return nil, err
	}
	u, err := m.checkToken(a.str("token"))
	if err != nil {
		return nil, err
	}
	if _, rec := findRecord(m.db("Reminder"), u, agendaMatch(a)); rec != nil {
		return rec, nil
	}
	return nil, reminderMissing(a)
}

func addMeeting(_ context.Context, m *manager, a kwargs) (any, error) {
	if err := checkDT(a.str("start_time")); err != nil {
		return nil, err
	}
	if err := checkDT(a.str("end_time")); err != nil {
		return nil, err
	}
	if pystr.Strip(a.str("meeting_topic")) == "" {
		return nil, raise("Meeting Topic should not be null")
	}
	db := m.db("Meeting")
	id, err := nextID(db)
	if err != nil {
		return nil, err
	}
	u, err := m.checkToken(a.str("token"))
	if err != nil {
		return nil, err
	}
	att, _ := a.get("attendees")
	db.Set(strconv.FormatInt(id, 10), dictOf("username", u, "meeting_topic", a.str("meeting_topic"),
		"start_time", a.str("start_time"), "end_time", a.str("end_time"), "location", a.str("location"), "attendees", att))
	return "success", nil
}

// meetingPrep runs the checks the delete/modify/query meeting APIs share.
func meetingPrep(m *manager, a kwargs) (string, func(*Dict) bool, error) {
	for _, f := range []string{"start_time", "end_time"} {
		if t := a.str(f); t != "" {
			if err := checkDT(t); err != nil {
				return "", nil, err
			}
		}
	}
	if pystr.Strip(a.str("meeting_topic")) == "" && a.str("start_time") == "" {
		return "", nil, raise("Meeting Topic and start_time should not be null both")
	}
	u, err := m.checkToken(a.str("token"))
	if err != nil {
		return "", nil, err
	}
	match := func(r *Dict) bool {
		return fieldIs(r, "meeting_topic", a.str("meeting_topic")) || fieldIs(r, "start_time", a.str("start_time"))
	}
	return u, match, nil
}

func meetingMissing(a kwargs) error {
	if t := a.str("meeting_topic"); t != "" {
		return raise("You have no meeting about %s", t)
	}
	if t := a.str("start_time"); t != "" {
		return raise("You have no meeting at time : %s", t)
	}
	return nil
}

func deleteMeeting(_ context.Context, m *manager, a kwargs) (any, error) {
	u, match, err := meetingPrep(m, a)
	if err != nil {
		return nil, err
	}
	db := m.db("Meeting")
	if k, _ := findRecord(db, u, match); k != nil {
		db.Delete(k)
		return "success", nil
	}
	if err := meetingMissing(a); err != nil {
		return nil, err
	}
	return "success", nil
}

func modifyMeeting(_ context.Context, m *manager, a kwargs) (any, error) {
	u, match, err := meetingPrep(m, a)
	if err != nil {
		return nil, err
	}
	if _, rec := findRecord(m.db("Meeting"), u, match); rec != nil {
		if t := a.str("meeting_topic"); t != "" {
			rec.Set("meeting_topic", t)
		}
		if t := a.str("start_time"); t != "" {
			rec.Set("start_time", t)
			rec.Set("end_time", a.str("end_time"))
		}
		return "success", nil
	}
	if err := meetingMissing(a); err != nil {
		return nil, err
	}
	return "success", nil
}

func queryMeeting(_ context.Context, m *manager, a kwargs) (any, error) {
	u, match, err := meetingPrep(m, a)
	if err != nil {
		return nil, err
	}
	if _, rec := findRecord(m.db("Meeting"), u, match); rec != nil {
		return rec, nil
	}
	if err := meetingMissing(a); err != nil {
		return nil, err
	}
	return pyExc("Error"), nil
}
