package board

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"
)

// The instructor's side of /admin/: make classroom leaves the board's loopback address and its
// admin token in a 0600 file beside the database; make board-remove and make board-clear read
// it. Another user of the laptop, or anyone on the network, has neither.

// AdminFile is that file, for the board whose database is statePath.
func AdminFile(statePath string) string { return statePath + ".admin" }

type adminAccess struct {
	URL   string `json:"url"`
	Token string `json:"token"`
}

// WriteAdminFile records where the running board answers and its token, readable by its owner only.
func WriteAdminFile(path, url, token string) error {
	data, _ := json.Marshal(adminAccess{url, token})
	_ = os.Remove(path) // a file left by a board that crashed, perhaps with other permissions
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	return errors.Join(err, f.Close())
}

// Remove takes a learner off the running board; it returns the name as the board had it.
func Remove(ctx context.Context, adminPath, name string) (string, error) {
	var answer removeRequest
	err := callAdmin(ctx, adminPath, "remove", removeRequest{name}, &answer)
	return answer.Learner, err
}

// Clear takes every learner off the running board, with a new join code if newCode.
func Clear(ctx context.Context, adminPath string, newCode bool) (ClearAnswer, error) {
	var answer ClearAnswer
	err := callAdmin(ctx, adminPath, "clear", clearRequest{newCode}, &answer)
	return answer, err
}

func callAdmin(ctx context.Context, adminPath, action string, body, answer any) error {
	data, err := os.ReadFile(adminPath)
	if errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("no board is running with this state (%s is missing): start it with make classroom, or give STATE=<its database>", adminPath)
	}
	var access adminAccess
	if err == nil {
		err = json.Unmarshal(data, &access)
	}
	if err != nil {
		return fmt.Errorf("%s is damaged (%v): restart make classroom", adminPath, err)
	}
	payload, _ := json.Marshal(body)
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, access.URL+"/admin/"+action, bytes.NewReader(payload))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+access.Token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("the board at %s did not answer (%v): is make classroom still running?", access.URL, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 1000))
		return fmt.Errorf("the board refused (%s): %s", resp.Status, strings.TrimSpace(string(msg)))
	}
	return json.NewDecoder(resp.Body).Decode(answer)
}
