package apibank

import "strings"

// languageCode resolves a Translate language argument the way the reference
// does: absent means English; anything mentioning "chinese" is zh-cn (or
// zh-tw when "traditional"); otherwise an exact ISO 639-1 code, or the first
// language whose English name occurs in the text. The table is a common
// subset of ISO 639-1, written here; codes outside it are "not supported".
func languageCode(lang string, given bool) (string, error) {
	if !given {
		return "en", nil
	}
	if strings.Contains(lang, "chinese") {
		if strings.Contains(lang, "traditional") {
			return "zh-tw", nil
		}
		return "zh-cn", nil
	}
	for _, l := range languageTable() {
		if l[0] == lang {
			return l[0], nil
		}
		if strings.Contains(lang, l[1]) {
			return l[0], nil
		}
	}
	return "", raise("Language not supported.")
}

// languageTable pairs ISO 639-1 codes with lower-case English names.
func languageTable() [][2]string {
	return [][2]string{
		{"ar", "arabic"}, {"bn", "bengali"}, {"cs", "czech"}, {"da", "danish"}, {"de", "german"},
		{"el", "greek"}, {"en", "english"}, {"es", "spanish"}, {"fa", "persian"}, {"fi", "finnish"},
		{"fr", "french"}, {"he", "hebrew"}, {"hi", "hindi"}, {"hu", "hungarian"}, {"id", "indonesian"},
		{"it", "italian"}, {"ja", "japanese"}, {"ko", "korean"}, {"ms", "malay"}, {"nl", "dutch"},
		{"no", "norwegian"}, {"pl", "polish"}, {"pt", "portuguese"}, {"ro", "romanian"}, {"ru", "russian"},
		{"sv", "swedish"}, {"sw", "swahili"}, {"th", "thai"}, {"tr", "turkish"}, {"uk", "ukrainian"},
		{"ur", "urdu"}, {"vi", "vietnamese"},
	}
}
