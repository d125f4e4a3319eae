package movielens

import (
	"fmt"
	"strings"
)

// Languages of the rendered text.
const (
	LangZH = "zh"
	LangEN = "en"
)

// AgeBand names an ML-1M age code ("" for an unknown code).
func AgeBand(code int, lang string) string {
	zh := lang != LangEN
	switch code {
	case 1:
		return pick(zh, "18岁以下", "under 18")
	case 18:
		return pick(zh, "18-24岁", "18-24")
	case 25:
		return pick(zh, "25-34岁", "25-34")
	case 35:
		return pick(zh, "35-44岁", "35-44")
	case 45:
		return pick(zh, "45-49岁", "45-49")
	case 50:
		return pick(zh, "50-55岁", "50-55")
	case 56:
		return pick(zh, "56岁及以上", "56 or older")
	}
	return ""
}

// OccupationName names an ML-1M occupation code (0..20), as listed in the
// dataset's README; "" for an unknown code.
func OccupationName(code int, lang string) string {
	en := [...]string{
		"other or unspecified", "academic/educator", "artist", "clerical/admin",
		"college/grad student", "customer service", "doctor/health care",
		"executive/managerial", "farmer", "homemaker", "K-12 student", "lawyer",
		"programmer", "retired", "sales/marketing", "scientist", "self-employed",
		"technician/engineer", "tradesman/craftsman", "unemployed", "writer",
	}
	zh := [...]string{
		"其他或未说明", "学术/教育工作者", "艺术家", "文职/行政人员",
		"大学生/研究生", "客户服务人员", "医生/医疗从业者",
		"企业高管/管理人员", "农民", "家庭主妇/主夫", "中小学生", "律师",
		"程序员", "退休人员", "销售/市场营销人员", "科学家", "自由职业者",
		"技术员/工程师", "手工业者/工匠", "待业人员", "作家",
	}
	if code < 0 || code >= len(en) {
		return ""
	}
	if lang == LangEN {
		return en[code]
	}
	return zh[code]
}

// GenreName translates an official genre name for Chinese text; English
// text keeps the official name.
func GenreName(g, lang string) string {
	if lang == LangEN {
		return g
	}
	switch g {
	case "Action":
		return "动作"
	case "Adventure":
		return "冒险"
	case "Animation":
		return "动画"
	case "Children's":
		return "儿童"
	case "Comedy":
		return "喜剧"
	case "Crime":
		return "犯罪"
	case "Documentary":
		return "纪录片"
	case "Drama":
		return "剧情"
	case "Fantasy":
		return "奇幻"
	case "Film-Noir":
		return "黑色电影"
	case "Horror":
		return "恐怖"
	case "Musical":
		return "歌舞"
	case "Mystery":
		return "悬疑"
	case "Romance":
		return "爱情"
	case "Sci-Fi":
		return "科幻"
	case "Thriller":
		return "惊悚"
	case "War":
		return "战争"
	case "Western":
		return "西部"
	}
	return g
}

func pick(zh bool, a, b string) string {
	if zh {
		return a
	}
	return b
}

// Profile is the one-sentence user description built from users.dat.
func Profile(u User, lang string) string {
	if lang == LangEN {
		gender := "woman"
		if u.Gender == "M" {
			gender = "man"
		}
		return fmt.Sprintf("The user is a %s aged %s whose occupation is %s.",
			gender, AgeBand(u.Age, lang), OccupationName(u.Occupation, lang))
	}
	gender := "女性"
	if u.Gender == "M" {
		gender = "男性"
	}
	return fmt.Sprintf("该用户是一位%s，年龄段为%s，职业是%s。",
		gender, AgeBand(u.Age, lang), OccupationName(u.Occupation, lang))
}

// MovieContext describes a movie: its name, release year and genres.
func MovieContext(m Movie, lang string) string {
	genres := make([]string, len(m.Genres))
	for i, g := range m.Genres {
		genres[i] = GenreName(g, lang)
	}
	if lang == LangEN {
		year := "in an unknown year"
		if m.Year > 0 {
			year = fmt.Sprintf("in %d", m.Year)
		}
		g := strings.Join(genres, ", ")
		if g == "" {
			g = "unknown"
		}
		return fmt.Sprintf("This film is called %s, released %s, genre: %s.", m.Name, year, g)
	}
	year := "上映年份未知"
	if m.Year > 0 {
		year = fmt.Sprintf("于%d年上映", m.Year)
	}
	g := strings.Join(genres, "、")
	if g == "" {
		g = "未知"
	}
	return fmt.Sprintf("这部电影名为《%s》，%s，类型为%s。", m.Name, year, g)
}

// RatingResult describes the user's rating of the movie.
func RatingResult(r int, lang string) string {
	if lang == LangEN {
		return fmt.Sprintf("The user rated this film %d (out of 5).", r)
	}
	return fmt.Sprintf("该用户给这部电影打了%d分（满分5分）。", r)
}

// QuestionText asks for the rating of the current movie.
func QuestionText(lang string) string {
	if lang == LangEN {
		return "What rating (1 to 5) will the user give this film?"
	}
	return "该用户会给这部电影打几分（1-5分）？"
}
