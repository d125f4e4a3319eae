package apibank

import "context"

// apiHandler runs one API with typed arguments; an apiError it returns
// becomes the result's exception.
type apiHandler func(ctx context.Context, m *manager, a kwargs) (any, error)

// apiFunc maps the 53 reference API names to their implementations.
func apiFunc(name string) (apiHandler, bool) {
	var f apiHandler
	switch name {
	case "AddAgenda":
		f = addAgenda
	case "AddAlarm":
		f = addAlarm
	case "AddMeeting":
		f = addMeeting
	case "AddReminder":
		f = addReminder
	case "AddScene":
		f = addScene
	case "AppointmentRegistration":
		f = appointmentRegistration
	case "BookHotel":
		f = bookHotel
	case "Calculator":
		f = calculator
	case "CancelRegistration":
		f = cancelRegistration
	case "CancelTimedSwitch":
		f = cancelTimedSwitch
	case "CheckToken":
		f = checkTokenAPI
	case "DeleteAccount":
		f = deleteAccount
	case "DeleteAgenda":
		f = deleteAgenda
	case "DeleteAlarm":
		f = deleteAlarm
	case "DeleteMeeting":
		f = deleteMeeting
	case "DeleteReminder":
		f = deleteReminder
	case "DeleteScene":
		f = deleteScene
	case "Dictionary":
		f = dictionary
	case "DocumentQA":
		f = documentQA
	case "EmergencyKnowledge":
		f = emergencyKnowledge
	case "ForgotPassword":
		f = forgotPassword
	case "GetToday":
		f = getToday
	case "GetUserToken":
		f = getUserToken
	case "ImageCaption":
		f = imageCaption
	case "ModifyAgenda":
		f = modifyAgenda
	case "ModifyAlarm":
		f = modifyAlarm
	case "ModifyMeeting":
		f = modifyMeeting
	case "ModifyPassword":
		f = modifyPassword
	case "ModifyRegistration":
		f = modifyRegistration
	case "ModifyReminder":
		f = modifyReminder
	case "ModifyScene":
		f = modifyScene
	case "OpenBankAccount":
		f = openBankAccount
	case "PlayMusic":
		f = playMusic
	case "QueryAgenda":
		f = queryAgenda
	case "QueryAlarm":
		f = queryAlarm
	case "QueryBalance":
		f = queryBalance
	case "QueryHealthData":
		f = queryHealthData
	case "QueryHistoryToday":
		f = queryHistoryToday
	case "QueryMeeting":
		f = queryMeeting
	case "QueryRegistration":
		f = queryRegistration
	case "QueryReminder":
		f = queryReminder
	case "QueryScene":
		f = queryScene
	case "QueryStock":
		f = queryStock
	case "RecordHealthData":
		f = recordHealthData
	case "RegisterUser":
		f = registerUser
	case "SearchEngine":
		f = searchEngine
	case "SendEmail":
		f = sendEmail
	case "SpeechRecognition":
		f = speechRecognition
	case "SymptomSearch":
		f = symptomSearch
	case "TimedSwitch":
		f = timedSwitch
	case "ToolSearcher":
		f = toolSearcher
	case "Translate":
		f = translate
	case "Wiki":
		f = wiki
	}
	return f, f != nil
}
