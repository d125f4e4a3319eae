package apibank

import "testing"

func TestCorrect(t *testing.T) {
	res := func(out any, in ...any) Result { return Result{Input: dictOf(in...), Output: out} }
	for _, tc := range []struct {
		api      string
		resp, gt Result
		want     bool
	}{
		{"AddAgenda", res("success", "content", "Meeting with John at office", "time", "t", "location", "x"),
			res("success", "content", "Meeting with John at the office", "time", "t", "location", "x"), true},
		{"AddAgenda", res("success", "content", "John", "time", "t", "location", "x"),
			res("success", "content", "Meeting with John", "time", "t", "location", "x"), false},
		{"AddReminder", res("success", "content", "CALL MOM", "time", "t"), res("success", "content", "call mom", "time", "t"), true},
		{"DeleteMeeting", res("success", "meeting_topic", "a", "start_time", "s"), res("success", "meeting_topic", "b", "start_time", "s"), true},
		{"DeleteMeeting", res("success", "start_time", "s1"), res("success", "start_time", "s2"), false},
		{"Calculator", res(6.0, "formula", "(5*6) / (2+3)"), res(6.0, "formula", "(5*6)/(2+3)"), true},
		{"QueryStock", res(42.05, "stock_code", " nvlx", "date", "2024-4-30"), res(42.05, "stock_code", "NVLX", "date", "2024-04-30"), true},
		{"AppointmentRegistration", res("111", "patient_name", "A", "date", "2024-01-02", "doctor_name", "D"),
			res("999", "patient_name", "A ", "date", "2024-1-2", "doctor_name", "D"), true},
		{"RecordHealthData", res("success", "user_id", "p1", "time", "2024-01-01 00:00:00", "health_data",
			[]any{dictOf("name", "hr", "value", int64(80)), dictOf("name", "bp", "value", "1/2")}),
			res("success", "user_id", "P1", "time", "2024-01-01 00:00:00", "health_data",
				[]any{dictOf("name", "bp", "value", "1/2"), dictOf("name", "hr", "value", "80")}), true},
		{"GetUserToken", res(dictOf("token", "x"), "username", "u", "password", "p"), res(dictOf("token", "x"), "username", "u", "password", "q"), false},
		{"PlayMusic", res("music://a", "music_name", "A"), res("music://a", "music_name", "a"), true},
		// Python's str.strip/lower/upper (issue 14): \x1c-\x1f are white space,
		// lower() knows the final sigma, upper() maps ß to SS.
		{"SendEmail", res("success", "receiver", "A@B.COM\x1f", "subject", "\x1ehi", "content", "c"),
			res("success", "receiver", "a@b.com", "subject", "hi", "content", "c"), true},
		{"QueryScene", res("ok", "name", "ΟΔΟΣ"), res("ok", "name", "οδος"), true},
		{"QueryStock", res(1.0, "stock_code", "straße", "date", "2024-04-30"), res(1.0, "stock_code", "STRASSE", "date", "2024-04-30"), true},
		{"Calculator", res(int64(9007199254740993), "formula", "1"), res(9007199254740992.0, "formula", "1"), false},
	} {
		tc.resp.APIName, tc.gt.APIName = tc.api, tc.api
		if got := correct(tc.api, tc.resp, tc.gt); got != tc.want {
			t.Errorf("%s %s vs %s: %v, want %v", tc.api, pyRepr(tc.resp.Input), pyRepr(tc.gt.Input), got, tc.want)
		}
	}
}
