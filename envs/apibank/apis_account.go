package apibank

import (
	"context"
	"github.com/memharness/memharness/internal/pyfmt"
	"strings"
)

// Account, bank and token APIs over the Account and Bank databases
// ({username: {password, token, email}}, {username: {balance, ...}}).

func getUserToken(_ context.Context, m *manager, a kwargs) (any, error) {
	acc := m.db("Account")
	u, ok := acc.Get(a.str("username"))
	if !ok {
		return nil, raise("The username does not exist.")
	}
	ud, _ := u.(*Dict)
	if ud == nil || !pyEqual(mustGet(ud, "password"), a.str("password")) {
		return nil, raise("The password is incorrect.")
	}
	return dictOf("token", mustGet(ud, "token")), nil
}

func checkTokenAPI(_ context.Context, m *manager, a kwargs) (any, error) {
	u, err := m.checkToken(a.str("token"))
	if err != nil {
		return nil, err
	}
	return dictOf("username", u), nil
}

func deleteAccount(_ context.Context, m *manager, a kwargs) (any, error) {
	u, err := m.checkToken(a.str("token"))
	if err != nil {
		return nil, err
	}
	acc := m.db("Account")
	if !acc.Has(u) {
		return nil, raise("No such user.")
	}
	acc.Delete(u)
	return dictOf("status", "success"), nil
}

func modifyPassword(_ context.Context, m *manager, a kwargs) (any, error) {
	u, err := m.checkToken(a.str("token"))
	if err != nil {
		return nil, err
	}
	ud, _ := mustGet(m.db("Account"), u).(*Dict)
	if ud == nil || !pyEqual(mustGet(ud, "password"), a.str("old_password")) {
		return nil, raise("The old password is incorrect.")
	}
	ud.Set("password", a.str("new_password"))
	return dictOf("status", "success"), nil
}

func registerUser(_ context.Context, m *manager, a kwargs) (any, error) {
	acc := m.db("Account")
	name := a.str("username")
	if acc.Has(name) {
		return nil, raise("The username already exists.")
	}
	// Upstream: 18 random letters/digits, lower-cased; here from the episode seed.
	const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	var b strings.Builder
	for range 18 {
		b.WriteByte(alphabet[m.rng.Intn(len(alphabet))])
	}
	token := strings.ToLower(b.String())
	acc.Set(name, dictOf("password", a.str("password"), "token", token, "email", a.str("email")))
	return dictOf("token", token), nil
}

// forgotPassword is a two-step flow: status 'Forgot Password' with username
// and email returns a fixed code (970420 upstream); status 'Verification
// Code' with that code and a new password changes it.
func forgotPassword(_ context.Context, m *manager, a kwargs) (any, error) {
	switch a.str("status") {
	case "Forgot Password":
		user, okU := a.get("username")
		email, okE := a.get("email")
		if !okU || !okE {
			return nil, raise("The username and email are required for the first call.")
		}
		us, _ := user.(string)
		ud, ok := m.db("Account").Get(us)
		if !ok {
			return nil, raise("The username does not exist.")
		}
		if d, _ := ud.(*Dict); d == nil || !pyEqual(mustGet(d, "email"), email) {
			return nil, raise("The email is incorrect.")
		}
		m.forgotUser, m.forgotCode = us, int64(970420)
		return m.forgotCode, nil
	case "Verification Code":
		if !pyTruthy(m.forgotCode) {
			return nil, raise("You need to call the API with status 'Forgot Password' at first.")
		}
		pw, okP := a.get("new_password")
		code, okC := a.get("verification_code")
		if !okP || !okC {
			return nil, raise("The new password and verification code are required for the second call.")
		}
		if !pyEqual(m.forgotCode, code) {
			return nil, raise("The verification code is incorrect.")
		}
		ud, _ := mustGet(m.db("Account"), m.forgotUser).(*Dict)
		if ud == nil {
			return nil, raise("%s", pyfmt.Str(m.forgotUser)) // Python's KeyError text
		}
		ud.Set("password", pw)
		return "success", nil
	}
	return nil, raise("The status is only 'Forgot Password' or 'Verification Code'.")
}

func openBankAccount(_ context.Context, m *manager, a kwargs) (any, error) {
	for _, k := range m.bank.Keys() {
		if rec, _ := mustGet(m.bank, k).(*Dict); rec != nil && pyEqual(mustGet(rec, "account"), a.str("account")) {
			return "failed", nil
		}
	}
	m.bank.Set(int64(m.bank.Len()+1), dictOf("account", a.str("account"), "password", a.str("password"), "name", a.str("name")))
	return "success", nil
}

func queryBalance(_ context.Context, m *manager, a kwargs) (any, error) {
	u, err := m.checkToken(a.str("token"))
	if err != nil {
		return nil, raise("The token is incorrect.")
	}
	rec, ok := m.db("Bank").Get(u)
	if !ok {
		return nil, raise("The user does not have an account.")
	}
	d, _ := rec.(*Dict)
	if d == nil || !d.Has("balance") {
		return nil, raise("'balance'")
	}
	return mustGet(d, "balance"), nil
}

// mustGet returns d[k] or nil.
func mustGet(d *Dict, k any) any {
	if d == nil {
		return nil
	}
	v, _ := d.Get(k)
	return v
}
