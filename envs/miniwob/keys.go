package miniwob

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/chromedp/chromedp/kb"
)

// keySpec is a parsed agent.press argument: one key plus modifiers, and the
// editing commands Chromium needs to act on shortcuts in headless mode
// (a synthetic Ctrl+A selects nothing without the "selectAll" command).
type keySpec struct {
	key      rune
	mods     kb.Modifier
	commands []string
}

// namedKeys maps the key names agents use (Selenium/Synapse style) to kb runes.
var namedKeys = map[string]string{
	"enter": kb.Enter, "return": kb.Enter, "tab": kb.Tab, "space": " ",
	"backspace": kb.Backspace, "delete": kb.Delete, "escape": kb.Escape, "esc": kb.Escape,
	"arrowup": kb.ArrowUp, "up": kb.ArrowUp, "arrowdown": kb.ArrowDown, "down": kb.ArrowDown,
	"arrowleft": kb.ArrowLeft, "left": kb.ArrowLeft, "arrowright": kb.ArrowRight, "right": kb.ArrowRight,
	"home": kb.Home, "end": kb.End, "pageup": kb.PageUp, "pagedown": kb.PageDown,
}

// modifierNames maps modifier spellings to kb modifiers.
var modifierNames = map[string]kb.Modifier{
	"command": kb.ModifierCtrl, "cmd": kb.ModifierCtrl, "meta": kb.ModifierCtrl, // Linux Chromium uses Ctrl for shortcuts
	"ctrl": kb.ModifierCtrl, "control": kb.ModifierCtrl,
	"shift": kb.ModifierShift, "alt": kb.ModifierAlt, "option": kb.ModifierAlt,
}

// shortcutCommands are the editing commands of Ctrl+<letter> shortcuts.
var shortcutCommands = map[rune]string{'a': "selectAll", 'c': "copy", 'v': "paste", 'x': "cut", 'z': "undo"}

// parseKey reads "enter", "arrowdown", "a", "command+a", "shift+tab", ...
func parseKey(name string) (keySpec, error) {
	parts := strings.Split(strings.ToLower(strings.TrimSpace(name)), "+")
	var ks keySpec
	for _, m := range parts[:len(parts)-1] {
		mod, ok := modifierNames[strings.TrimSpace(m)]
		if !ok {
			return keySpec{}, fmt.Errorf("agent.press: unknown modifier %q in %q", clip(m, 20), clip(name, 40))
		}
		ks.mods |= mod
	}
	last := strings.TrimSpace(parts[len(parts)-1])
	if s, ok := namedKeys[last]; ok {
		ks.key, _ = utf8.DecodeRuneInString(s)
	} else if utf8.RuneCountInString(last) == 1 && last != "\x00" {
		ks.key, _ = utf8.DecodeRuneInString(last)
	} else {
		return keySpec{}, fmt.Errorf("agent.press: unknown key %q (e.g. enter, space, tab, backspace, arrowdown, command+a)", clip(name, 40))
	}
	if ks.mods&kb.ModifierCtrl != 0 {
		if c, ok := shortcutCommands[ks.key]; ok {
			ks.commands = []string{c}
		}
	}
	return ks, nil
}
