package gemini

import (
	"bytes"
	"io"

	"github.com/tallyhq/tally/internal/safefile"
)

// A main chat file is named by the first 8 characters of its session id;
// the full id — what `gemini --resume` takes and what sub-agents' folders
// are named by — is in the record's first line, {"sessionId":"…",…} (in a
// legacy .json, the document's first key). Gemini CLI itself reads it from
// the first 4 KB when it deletes a session.

// headLen is how much of a chat file is read for its session id.
const headLen = 4096

// maxIDs bounds the cache of ids read: past it the cache starts again, and
// files are read again as they are matched.
const maxIDs = 1 << 16

var sessionKey = []byte(`"sessionId"`)

// sessionID is the full session id of the main chat file at path, whose
// name holds short. ok is false for an empty file, which is not a chat
// record yet: Gemini CLI writes the header as it creates the file, so the
// next change names it. A file whose head holds no id starting with short
// (or that cannot be read) is named by short, the only id there is.
func (a *Adapter) sessionID(path, short string) (id string, ok bool) {
	a.mu.Lock()
	id, ok = a.ids[path]
	a.mu.Unlock()
	if ok {
		return id, true
	}
	head, err := readHead(path)
	if err != nil {
		return short, true
	}
	if len(head) == 0 {
		return "", false
	}
	id = headerID(head)
	if len(id) <= len(short) || id[:len(short)] != short {
		return short, true
	}
	a.mu.Lock()
	if len(a.ids) >= maxIDs {
		a.ids = make(map[string]string)
	}
	a.ids[path] = id
	a.mu.Unlock()
	return id, true
}

func readHead(path string) ([]byte, error) {
	f, err := safefile.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, headLen)
	n, err := io.ReadFull(f, buf)
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		err = nil
	}
	return buf[:n], err
}

// headerID reads the value of the first "sessionId" key in head: a plain
// id of letters, digits, '-' and '_', as Gemini CLI makes them; "" when
// there is none.
func headerID(head []byte) string {
	i := bytes.Index(head, sessionKey)
	if i < 0 {
		return ""
	}
	rest := bytes.TrimLeft(head[i+len(sessionKey):], " \t\r\n")
	rest, ok := bytes.CutPrefix(rest, []byte(":"))
	if !ok {
		return ""
	}
	rest, ok = bytes.CutPrefix(bytes.TrimLeft(rest, " \t\r\n"), []byte(`"`))
	if !ok {
		return ""
	}
	end := bytes.IndexByte(rest, '"')
	if end <= 0 || end > 128 {
		return ""
	}
	for _, c := range rest[:end] {
		if !(c == '-' || c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return ""
		}
	}
	return string(rest[:end])
}
