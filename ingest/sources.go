package ingest

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
)

// Limits of [Expand].
const (
	// MaxLineBytes bounds one JSONL line: 8 MiB. A longer line is reported
	// and skipped.
	MaxLineBytes = 8 << 20
	// MaxItems bounds the sources one Expand returns: 1,000,000.
	MaxItems = 1_000_000
	// maxIDLen bounds a record id.
	maxIDLen = 256
)

// Kind says where an [Item]'s text comes from.
type Kind int

const (
	KindURL    Kind = iota + 1 // fetched over HTTP(S)
	KindFile                   // a local HTML, Markdown or text file
	KindRecord                 // one line of a JSONL file
)

func (k Kind) String() string {
	switch k {
	case KindURL:
		return "url"
	case KindFile:
		return "file"
	case KindRecord:
		return "record"
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Item is one source to ingest.
type Item struct {
	// ID is the source's deterministic ID: "<file base name>:<record id>"
	// for a JSONL record with an id ("corpus:4983"), else "u-" and 16 hex
	// digits of the SHA-256 of the canonical URL, else "f-" and 16 hex
	// digits of the SHA-256 of the absolute path (with ":<line>" for a
	// record that has neither id nor URL).
	ID   string
	Kind Kind
	// Location names the item for people: the URL, the path, or
	// "path:line" for a record.
	Location string
	// URL is set for KindURL, and for a record that gives one.
	URL string
	// Path is the absolute path of the file, or of a record's JSONL file.
	Path string
	// Line is a record's 1-based line number.
	Line int

	// A record is not kept in memory: its line is read again when it is
	// ingested, so that Expand over a large JSONL file stays small.
	offset int64
	length int
}

// Record is one JSONL line. Only Text is required.
type Record struct {
	ID          string
	URL         string
	Title       string
	Text        string
	PublishedAt time.Time
	Domain      string
	// Reliability is nil when the record gives none.
	Reliability *float64
}

// Failure is a source, or an argument or line that names none, that could
// not be ingested.
type Failure struct {
	// Source is the item's Location, or the argument or "file:line".
	Source string `json:"source"`
	Reason string `json:"reason"`
	// Err is the error behind Reason, for errors.Is and errors.As.
	Err error `json:"-"`
}

// Expand turns command-line sources into items: an http(s) URL; a file
// (.html .htm .xhtml .md .markdown .txt .text .pdf); a directory, walked
// recursively for those extensions (hidden entries and symbolic links
// skipped); or a JSONL file (.jsonl, .ndjson), one record a line with the
// fields id (or doc_id), url, title, text or abstract (a string or a list
// of sentences), published_at, domain and reliability. A bad argument or
// line is returned as a Failure and does not stop the rest. The error is
// non-nil only when ctx ends or there are more than [MaxItems] items.
// Items are in argument order, files in lexical order; a source named
// twice is listed once.
func Expand(ctx context.Context, args []string) ([]Item, []Failure, error) {
	e := &expander{ctx: ctx, seen: map[string]string{}}
	for _, arg := range args {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		if err := e.arg(arg); err != nil {
			return nil, nil, err
		}
	}
	return e.items, e.failures, nil
}

type expander struct {
	ctx      context.Context
	items    []Item
	failures []Failure
	// seen maps an item ID to its location.
	seen map[string]string
}

var errTooManyItems = fmt.Errorf("more than %d sources", MaxItems)

func (e *expander) fail(source string, err error) {
	e.failures = append(e.failures, Failure{Source: source, Reason: err.Error(), Err: err})
}

func (e *expander) add(it Item) error {
	if prev, ok := e.seen[it.ID]; ok {
		if prev != it.Location {
			e.fail(it.Location, fmt.Errorf("source id %q already used by %s", it.ID, prev))
		}
		return nil
	}
	if len(e.items) >= MaxItems {
		return errTooManyItems
	}
	e.seen[it.ID] = it.Location
	e.items = append(e.items, it)
	return nil
}

func (e *expander) arg(arg string) error {
	arg = strings.TrimSpace(arg)
	if arg == "" {
		return nil
	}
	if scheme, _, ok := strings.Cut(arg, "://"); ok && !strings.ContainsAny(scheme, `/\`) {
		id, canon, err := urlID(arg)
		if err != nil {
			e.fail(arg, err)
			return nil
		}
		return e.add(Item{ID: id, Kind: KindURL, Location: canon, URL: canon})
	}
	abs, err := filepath.Abs(arg)
	if err != nil {
		e.fail(arg, err)
		return nil
	}
	info, err := os.Stat(abs)
	if err != nil {
		e.fail(arg, err)
		return nil
	}
	switch {
	case info.IsDir():
		return e.dir(abs)
	case isJSONL(abs):
		return e.jsonl(abs)
	}
	if _, ok := formatByExt[strings.ToLower(filepath.Ext(abs))]; !ok {
		e.fail(arg, fmt.Errorf("unsupported file type %q: want .html, .htm, .xhtml, .md, .markdown, .txt, .text, .pdf, .jsonl or .ndjson, or a directory", filepath.Ext(abs)))
		return nil
	}
	return e.add(fileItem(abs))
}

func isJSONL(path string) bool {
	ext := strings.ToLower(filepath.Ext(path))
	return ext == ".jsonl" || ext == ".ndjson"
}

func fileItem(abs string) Item {
	return Item{ID: "f-" + shortHash(abs), Kind: KindFile, Location: abs, Path: abs}
}

func (e *expander) dir(root string) error {
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if cerr := e.ctx.Err(); cerr != nil {
			return cerr
		}
		if err != nil {
			e.fail(path, err)
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if path != root && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		if _, ok := formatByExt[strings.ToLower(filepath.Ext(path))]; !ok {
			return nil
		}
		return e.add(fileItem(path))
	})
}

// jsonlBlock is how many lines of a JSONL file Expand parses at once, on
// every CPU.
const jsonlBlock = 1024

// jsonlLine is a line of a JSONL file read by Expand, and what it parsed
// to.
type jsonlLine struct {
	line    int
	offset  int64
	text    []byte
	tooLong bool
	rec     Record
	err     error
}

// jsonl lists the records of a JSONL file. Lines are parsed in blocks on
// every CPU (the parse is most of the listing's time, before any source
// can start) and listed in order.
func (e *expander) jsonl(path string) error {
	f, err := os.Open(path)
	if err != nil {
		e.fail(path, err)
		return nil
	}
	defer f.Close()
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	var ids map[string]int // record id -> first line
	var block []jsonlLine
	flush := func() error {
		parseLines(block)
		for _, l := range block {
			loc := path + ":" + strconv.Itoa(l.line)
			switch {
			case l.tooLong:
				e.fail(loc, fmt.Errorf("line %d is longer than %d bytes", l.line, MaxLineBytes))
				continue
			case l.err != nil:
				e.fail(loc, fmt.Errorf("line %d: %w", l.line, l.err))
				continue
			}
			rec := l.rec
			it := Item{Kind: KindRecord, Location: loc, Path: path, Line: l.line, URL: rec.URL, offset: l.offset, length: len(l.text)}
			switch {
			case rec.ID != "":
				it.ID = base + ":" + rec.ID
				if first, dup := ids[rec.ID]; dup {
					e.fail(loc, fmt.Errorf("line %d: id %q already used on line %d", l.line, rec.ID, first))
					continue
				}
				if ids == nil {
					ids = map[string]int{}
				}
				ids[rec.ID] = l.line
			case rec.URL != "":
				it.ID, _, _ = urlID(rec.URL)
			default:
				it.ID = "f-" + shortHash(path) + ":" + strconv.Itoa(l.line)
			}
			if err := e.add(it); err != nil {
				return err
			}
		}
		block = block[:0]
		return nil
	}
	err = scanLines(f, func(line int, offset int64, text []byte, tooLong bool) error {
		if err := e.ctx.Err(); err != nil {
			return err
		}
		block = append(block, jsonlLine{line: line, offset: offset, text: bytes.Clone(text), tooLong: tooLong})
		if len(block) == jsonlBlock {
			return flush()
		}
		return nil
	})
	if err != nil {
		return err
	}
	return flush()
}

// parseLines parses the lines of a block that are not too long, on every
// CPU.
func parseLines(block []jsonlLine) {
	workers := min(runtime.GOMAXPROCS(0), (len(block)+63)/64)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; i < len(block); i += workers {
				if l := &block[i]; !l.tooLong {
					l.rec, l.err = parseRecord(l.text)
				}
			}
		})
	}
	wg.Wait()
}

// scanLines calls fn for every non-blank line of r with its 1-based number
// and byte offset. A line over MaxLineBytes is passed as tooLong, without
// its text, and skipped.
func scanLines(r io.Reader, fn func(line int, offset int64, text []byte, tooLong bool) error) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var (
		buf    []byte
		offset int64
		line   int
	)
	for {
		start := offset
		buf = buf[:0]
		tooLong := false
		var err error
		for {
			var chunk []byte
			chunk, err = br.ReadSlice('\n')
			offset += int64(len(chunk))
			if !tooLong {
				if len(buf)+len(chunk) > MaxLineBytes+1 {
					tooLong, buf = true, buf[:0]
				} else {
					buf = append(buf, chunk...)
				}
			}
			if err != bufio.ErrBufferFull {
				break
			}
		}
		if err != nil && err != io.EOF {
			return err
		}
		if offset == start {
			return nil
		}
		line++
		text := bytes.TrimRight(buf, "\r\n")
		if line == 1 && bytes.HasPrefix(text, []byte("\ufeff")) {
			text = text[len("\ufeff"):]
			start += int64(len("\ufeff"))
		}
		if tooLong || len(bytes.TrimSpace(text)) > 0 {
			if ferr := fn(line, start, text, tooLong); ferr != nil {
				return ferr
			}
		}
		if err == io.EOF {
			return nil
		}
	}
}

// loadRecord reads and parses a record item's line again.
func loadRecord(it Item) (Record, error) {
	f, err := os.Open(it.Path)
	if err != nil {
		return Record{}, err
	}
	defer f.Close()
	buf := make([]byte, it.length)
	if _, err := f.ReadAt(buf, it.offset); err != nil {
		return Record{}, fmt.Errorf("read line %d: %w", it.Line, err)
	}
	return parseLine(it, buf)
}

// parseLine parses a record item's line, read again.
func parseLine(it Item, line []byte) (Record, error) {
	rec, err := parseRecord(line)
	if err != nil {
		return Record{}, fmt.Errorf("line %d changed since it was listed: %w", it.Line, err)
	}
	return rec, nil
}

// jsonRecord is the wire form of a record. Unknown fields are ignored.
type jsonRecord struct {
	ID          json.RawMessage `json:"id"`
	DocID       json.RawMessage `json:"doc_id"`
	URL         string          `json:"url"`
	Title       string          `json:"title"`
	Text        string          `json:"text"`
	Abstract    json.RawMessage `json:"abstract"`
	PublishedAt string          `json:"published_at"`
	Domain      string          `json:"domain"`
	Reliability *float64        `json:"reliability"`
}

func parseRecord(line []byte) (Record, error) {
	var jr jsonRecord
	if err := json.Unmarshal(line, &jr); err != nil {
		return Record{}, fmt.Errorf("invalid JSON: %w", err)
	}
	var rec Record
	var err error
	if rec.ID, err = recordID(jr.ID, "id"); err != nil {
		return Record{}, err
	}
	if rec.ID == "" {
		if rec.ID, err = recordID(jr.DocID, "doc_id"); err != nil {
			return Record{}, err
		}
	}
	rec.Text = jr.Text
	if strings.TrimSpace(rec.Text) == "" && len(jr.Abstract) > 0 {
		if rec.Text, err = abstractText(jr.Abstract); err != nil {
			return Record{}, err
		}
	}
	if strings.TrimSpace(rec.Text) == "" {
		return Record{}, errors.New("no text: want a non-empty \"text\" or \"abstract\"")
	}
	if u := strings.TrimSpace(jr.URL); u != "" {
		pu, err := url.Parse(u)
		if err != nil || (pu.Scheme != "http" && pu.Scheme != "https") || pu.Host == "" {
			return Record{}, fmt.Errorf("url %q is not an absolute http(s) URL", u)
		}
		rec.URL = u
	}
	if s := strings.TrimSpace(jr.PublishedAt); s != "" {
		t, ok := parseDate(s)
		if !ok {
			return Record{}, fmt.Errorf("published_at %q is not a date", s)
		}
		rec.PublishedAt = t
	}
	if r := jr.Reliability; r != nil && (math.IsNaN(*r) || *r < 0 || *r > 1) {
		return Record{}, fmt.Errorf("reliability %g is outside [0,1]", *r)
	}
	rec.Title = jr.Title
	rec.Domain = normalizeDomain(jr.Domain)
	rec.Reliability = jr.Reliability
	return rec, nil
}

// recordID reads an id given as a string or a number.
func recordID(raw json.RawMessage, field string) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var id string
	switch raw[0] {
	case '"':
		if err := json.Unmarshal(raw, &id); err != nil {
			return "", fmt.Errorf("%s: %w", field, err)
		}
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		id = string(raw)
	default:
		return "", fmt.Errorf("%s must be a string or a number", field)
	}
	id = strings.TrimSpace(id)
	if len(id) > maxIDLen {
		return "", fmt.Errorf("%s is longer than %d bytes", field, maxIDLen)
	}
	if strings.IndexFunc(id, unicode.IsControl) >= 0 {
		return "", fmt.Errorf("%s holds control characters", field)
	}
	return id, nil
}

// abstractText reads an abstract given as a string or a list of sentences.
func abstractText(raw json.RawMessage) (string, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var list []string
	if err := json.Unmarshal(raw, &list); err != nil {
		return "", errors.New("abstract must be a string or a list of strings")
	}
	return strings.Join(slices.DeleteFunc(list, func(s string) bool { return strings.TrimSpace(s) == "" }), " "), nil
}

// trackingParams are query parameters dropped from canonical URLs: they
// say how a reader arrived, not what the page is.
var trackingParams = map[string]bool{"fbclid": true, "gclid": true, "mc_cid": true, "mc_eid": true}

// CanonicalURL returns the form of rawURL that source IDs hash: lower-case
// scheme and host, no default port, no fragment, no utm_* or click-ID
// parameters, the others sorted, "/" for an empty path.
func CanonicalURL(rawURL string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(rawURL))
	if err != nil {
		return "", fmt.Errorf("invalid URL %q: %w", rawURL, err)
	}
	u.Scheme = strings.ToLower(u.Scheme)
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", fmt.Errorf("URL %q: scheme %q is not http or https", rawURL, u.Scheme)
	}
	host := strings.ToLower(u.Hostname())
	if host == "" {
		return "", fmt.Errorf("URL %q has no host", rawURL)
	}
	port := u.Port()
	if (u.Scheme == "http" && port == "80") || (u.Scheme == "https" && port == "443") {
		port = ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	u.Host = host
	if port != "" {
		u.Host += ":" + port
	}
	u.Fragment, u.RawFragment = "", ""
	if u.Path == "" {
		u.Path = "/"
	}
	if u.RawQuery != "" {
		q := u.Query()
		for k := range q {
			if trackingParams[strings.ToLower(k)] || strings.HasPrefix(strings.ToLower(k), "utm_") {
				q.Del(k)
			}
		}
		u.RawQuery = q.Encode() // sorted by key
	}
	return u.String(), nil
}

func urlID(rawURL string) (id, canonical string, err error) {
	canonical, err = CanonicalURL(rawURL)
	if err != nil {
		return "", "", err
	}
	return "u-" + shortHash(canonical), canonical, nil
}

func shortHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:8])
}
