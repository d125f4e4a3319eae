package omnibehavior

import (
	"slices"
	"testing"
)

func TestHashtags(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"#猫 今天的小猫太可爱了", []string{"猫"}},
		{"三分钟学会手冲咖啡", nil},
		{"#做饭#家常菜 红烧肉 #做饭", []string{"做饭"}},
		{"look #travel, #beach", []string{"travel", "beach"}},
		{"# lonely hash", nil},
	} {
		if got := hashtags(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("hashtags(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
