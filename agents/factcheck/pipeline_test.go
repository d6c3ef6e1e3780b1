package factcheck

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/verity-fc/verity/evidence"
)

const article = "Global temperatures have risen by 1.1 degrees Celsius since pre-industrial times. " +
	"The Paris Agreement was signed in 2015 by 196 countries. China produces 30% of global emissions."

const extraction = "CLAIM 1: Global temperatures have risen by 1.1 degrees Celsius since pre-industrial times\n" +
	"Context: Global temperatures have risen by 1.1 degrees Celsius since pre-industrial times.\nType: STATISTIC\n\n" +
	"CLAIM 2: The Paris Agreement was signed in 2015 by 196 countries\n" +
	"Context: The Paris Agreement was signed in 2015 by 196 countries.\nType: DATE\n\n" +
	"CLAIM 3: China produces 30% of global emissions\nContext: China produces 30% of global emissions.\nType: STATISTIC\n\n" +
	"EXTRACTION SUMMARY:\nTotal claims: 3\nBy type: STATISTIC: 2, DATE: 1"

const modelReport = "# Fact-Check Report\n\n## Content Summary\nClimate statistics.\n\n## Overall Reliability Score: 78\nMostly reliable.\n"

// panel is a working set of models: an extractor, three checkers and a
// reporter.
func panel() map[string]reply {
	return map[string]reply{
		"gen": answer(article),
		"ext": answer(extraction),
		"c1":  answer(verifications("VERIFIED HIGH", "VERIFIED HIGH", "DISPUTED MEDIUM About 27%.")),
		"c2":  answer(verifications("VERIFIED MEDIUM", "VERIFIED HIGH", "DISPUTED HIGH About 27%.")),
		"c3":  answer(verifications("VERIFIED HIGH", "UNVERIFIABLE LOW", "VERIFIED LOW")),
		"rep": answer(modelReport),
	}
}

var fullSequence = []string{
	EventStart, EventGenerateStart, EventGenerateComplete, EventExtractStart, EventExtractComplete,
	EventVerifyStart, EventCheckerComplete, EventCheckerComplete, EventCheckerComplete, EventAllCheckers,
	EventReportStart, EventReportComplete, EventTitleComplete, EventComplete,
}

func TestRunWithModels(t *testing.T) {
	e := newEnv(panel(), Config{})
	res, err := e.run(t, Request{Question: "What are the key facts about climate change?", Mode: "fact_check",
		ModeConfig: &ModeConfig{GeneratorModel: "gen", ExtractorModel: "ext", CheckerModels: []string{"c1", "c2", "c3"}, ReporterModel: "rep"}})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(fullSequence, e.rec.names()); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	start := find[StartPayload](t, e.rec, EventStart)
	wantStart := StartPayload{ConversationID: "id-1", MessageID: "id-2", Config: StartConfig{ContentSource: SourceGenerated,
		GeneratorModel: "gen", ExtractorModel: "ext", CheckerModels: []string{"c1", "c2", "c3"}, ReporterModel: "rep"}}
	if diff := cmp.Diff(wantStart, start); diff != "" {
		t.Errorf("factcheck_start (-want +got):\n%s", diff)
	}
	ext := find[ExtractCompletePayload](t, e.rec, EventExtractComplete)
	if ext.TotalClaims != 3 || ext.Claims[1] != (ClaimBrief{ID: "claim_2", Claim: "The Paris Agreement was signed in 2015 by 196 countries", Type: "DATE"}) ||
		!cmp.Equal(ext.TypeBreakdown, map[string]int{"STATISTIC": 2, "DATE": 1}) {
		t.Errorf("extract_complete = %+v", ext)
	}

	wantConsensus := []ConsensusBrief{
		{ClaimID: "claim_1", Claim: "Global temperatures have risen by 1.1 degrees Celsius since pre-industrial times", ConsensusVerdict: Verified, AgreementRate: 100},
		{ClaimID: "claim_2", Claim: "The Paris Agreement was signed in 2015 by 196 countries", ConsensusVerdict: Verified, AgreementRate: 66.7},
		{ClaimID: "claim_3", Claim: "China produces 30% of global emissions", ConsensusVerdict: Disputed, AgreementRate: 66.7, Correction: new("About 27%.")},
	}
	if diff := cmp.Diff(wantConsensus, find[AllCheckersPayload](t, e.rec, EventAllCheckers).Consensus); diff != "" {
		t.Errorf("all_checkers_complete (-want +got):\n%s", diff)
	}
	rc := find[ReportCompletePayload](t, e.rec, EventReportComplete)
	if rc.Model != "rep" || rc.ReliabilityScore == nil || *rc.ReliabilityScore != 78 || rc.Summary.Verified != 2 || rc.Summary.Disputed != 1 {
		t.Errorf("report_complete = %+v", rc)
	}
	if got := find[TitlePayload](t, e.rec, EventTitleComplete).Title; got != "What are the key facts about climate change?" {
		t.Errorf("title = %q", got)
	}

	// The prompts carry the generated content and the claims.
	if p := e.chat.promptsFor("ext"); len(p) != 1 || !strings.Contains(p[0], "CONTENT:\n"+article) {
		t.Errorf("extractor prompt = %q", p)
	}
	if p := e.chat.promptsFor("c2"); len(p) != 1 || !strings.Contains(p[0], "CLAIM claim_3: China produces 30% of global emissions\nContext: China produces 30% of global emissions.\nType: STATISTIC") {
		t.Errorf("checker prompt = %q", p)
	}
	if p := e.chat.promptsFor("rep"); len(p) != 1 || !strings.Contains(p[0], "Consensus Verdict: DISPUTED (66.7% agreement among 3 checkers)") {
		t.Errorf("reporter prompt = %q", p)
	}

	wantStages := []string{"generate/0/generator/gen", "extract/1/extractor/ext", "verify_0/10/checker/c1", "verify_1/11/checker/c2",
		"verify_2/12/checker/c3", "report/99/reporter/rep"}
	got := e.store.types()
	// Checkers store in completion order; compare as a set for those.
	slices.Sort(got[2:5])
	if diff := cmp.Diff(wantStages, got); diff != "" {
		t.Errorf("stages (-want +got):\n%s", diff)
	}

	loaded, err := e.p.Load(context.Background(), res.MessageID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(res, loaded); diff != "" {
		t.Errorf("Load differs from Run (-run +load):\n%s", diff)
	}
	if !strings.HasPrefix(res.Report.ReportText, modelReport) {
		t.Errorf("report text = %q", res.Report.ReportText)
	}
}

func TestRunBuiltinRoles(t *testing.T) {
	e := newEnv(nil, Config{})
	e.verifier.results = map[string]evidence.Result{
		"The Paris Agreement was signed in 2015 by 196 countries": {Verdict: evidence.Supported, Score: 92},
		"China produces 30% of global emissions":                  {Verdict: evidence.Refuted, Score: 8, Features: evidence.Features{CMax: 0.8}},
	}
	res, err := e.run(t, Request{Question: "Check this", Mode: "fact_check", ModeConfig: &ModeConfig{ContentToCheck: article}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{EventStart, EventExtractStart, EventExtractComplete, EventVerifyStart, EventCheckerComplete, EventAllCheckers,
		EventReportStart, EventReportComplete, EventTitleComplete, EventComplete}
	if diff := cmp.Diff(want, e.rec.names()); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	verdicts := make([]string, len(res.Verification.Consensus))
	for i, c := range res.Verification.Consensus {
		verdicts[i] = c.ClaimID + " " + c.ConsensusVerdict
	}
	if diff := cmp.Diff([]string{"claim_1 UNVERIFIABLE", "claim_2 VERIFIED", "claim_3 DISPUTED"}, verdicts); diff != "" {
		t.Errorf("verdicts (-want +got):\n%s", diff)
	}
	if res.Extraction.Model != BuiltinExtractor || res.Report.Model != BuiltinReporter || res.Verification.Checkers[0].Model != BuiltinEvidence {
		t.Errorf("models = %s, %s, %s", res.Extraction.Model, res.Verification.Checkers[0].Model, res.Report.Model)
	}
	if res.Report.ReliabilityScore == nil || *res.Report.ReliabilityScore != 50 || res.Report.Fallback {
		t.Errorf("report = %+v", res.Report)
	}
	for _, s := range []string{"## Overall Reliability Score: 50", "| claim_3 | China produces 30% of global emissions | DISPUTED | 100% |", "China produces 30% of global emissions. [DISPUTED]"} {
		if !strings.Contains(res.Report.ReportText, s) {
			t.Errorf("report lacks %q:\n%s", s, res.Report.ReportText)
		}
	}
	if got := RenderMarkdown(res); got != res.Report.ReportText {
		t.Errorf("RenderMarkdown differs from the report text")
	}
	if diff := cmp.Diff([]string{"extract/1/extractor/verity/extractor", "verify_0/10/checker/verity/evidence", "report/99/reporter/verity/reporter"}, e.store.types()); diff != "" {
		t.Errorf("stages (-want +got):\n%s", diff)
	}
}

func TestRunEvidenceCheckerBesideModels(t *testing.T) {
	e := newEnv(panel(), Config{})
	res, err := e.run(t, req(article, "c1", BuiltinEvidence))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Verification.Checkers) != 2 {
		t.Fatalf("checkers = %+v", res.Verification.Checkers)
	}
	// c1 says VERIFIED, the empty corpus UNVERIFIABLE: the tie goes to VERIFIED.
	if c := res.Verification.Consensus[0]; c.ConsensusVerdict != Verified || c.AgreementRate != 50 || len(c.Verdicts) != 2 {
		t.Errorf("claim_1 consensus = %+v", c)
	}
}

func TestNoClaims(t *testing.T) {
	e := newEnv(map[string]reply{"ext": answer("EXTRACTION SUMMARY:\nTotal claims: 0"), "c1": answer(""), "rep": answer(modelReport)}, Config{})
	res, err := e.run(t, req("I love this. It is the best day ever. What a time to be alive!", "c1"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{EventStart, EventExtractStart, EventExtractComplete, EventReportStart, EventReportComplete, EventTitleComplete, EventComplete}
	if diff := cmp.Diff(want, e.rec.names()); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	rc := find[ReportCompletePayload](t, e.rec, EventReportComplete)
	b, _ := json.Marshal(rc)
	if got := string(b); got != `{"model":"verity/reporter","reliabilityScore":null,"summary":{"verified":0,"disputed":0,"unverifiable":0,"note":"No verifiable claims identified"},"responseTimeMs":0}` {
		t.Errorf("report_complete = %s", got)
	}
	if len(e.chat.promptsFor("c1")) != 0 || len(e.chat.promptsFor("rep")) != 0 {
		t.Error("checkers or reporter were called without claims")
	}
	if res.Report.ReliabilityScore != nil || !slices.Contains(res.Report.Notes, noteNoClaims) || !strings.Contains(res.Report.ReportText, noteNoClaims) {
		t.Errorf("report = %+v", res.Report)
	}
	if !slices.Contains(res.Report.Notes, noteOpinion) {
		t.Errorf("opinion content not noted: %q", res.Report.Notes)
	}
	loaded, err := e.p.Load(context.Background(), res.MessageID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(res, loaded); diff != "" {
		t.Errorf("Load differs from Run (-run +load):\n%s", diff)
	}
}

func TestOpinionHeavyContent(t *testing.T) {
	e := newEnv(nil, Config{})
	content := "I think this city is wonderful. The food is amazing. Everyone should visit in spring. " +
		"Prices might go up soon. The museum opened in 1902."
	res, err := e.run(t, Request{Question: "Check", Mode: "fact_check", ModeConfig: &ModeConfig{ContentToCheck: content}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Extraction.Claims) != 1 || res.Extraction.Claims[0].Claim != "The museum opened in 1902" {
		t.Errorf("claims = %+v", res.Extraction.Claims)
	}
	for _, n := range []string{noteOpinion, noteFewClaims} {
		if !slices.Contains(res.Report.Notes, n) || !strings.Contains(res.Report.ReportText, n) {
			t.Errorf("note %q missing: %q", n, res.Report.Notes)
		}
	}
	if res.Report.ReliabilityScore == nil {
		t.Error("the score should rest on the claims that exist")
	}
}

func TestOneCheckerFails(t *testing.T) {
	m := panel()
	m["c2"] = failWith(errModelDown)
	e := newEnv(m, Config{})
	res, err := e.run(t, req(article, "c1", "c2", "c3"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(strings.Join(e.rec.names(), " "), EventCheckerComplete); n != 2 {
		t.Errorf("checker_complete events = %d, want 2", n)
	}
	wantFailed := []CheckerFailure{{Model: "c2", Error: "failed"}}
	if diff := cmp.Diff(wantFailed, find[AllCheckersPayload](t, e.rec, EventAllCheckers).FailedCheckers); diff != "" {
		t.Errorf("failed checkers (-want +got):\n%s", diff)
	}
	if c := res.Verification.Consensus[2]; c.ConsensusVerdict != Disputed || c.AgreementRate != 50 {
		t.Errorf("claim_3 = %+v (c1 DISPUTED, c3 VERIFIED)", c)
	}
	rep := stageData[reportData](t, e.store, "report")
	if rep.CheckerCount != 2 || !cmp.Equal(rep.FailedCheckers, wantFailed) {
		t.Errorf("report metadata = %+v", rep)
	}
	if !slices.ContainsFunc(res.Report.Notes, func(n string) bool { return strings.HasPrefix(n, "Only 2 of 3 checkers completed") }) {
		t.Errorf("notes = %q", res.Report.Notes)
	}
	if slices.ContainsFunc(e.store.types(), func(s string) bool { return strings.HasPrefix(s, "verify_1/") }) {
		t.Error("a stage was stored for the failed checker")
	}
}

func TestAllCheckersFail(t *testing.T) {
	m := panel()
	m["c1"], m["c2"] = failWith(errModelDown), failWith(errModelDown)
	e := newEnv(m, Config{})
	r := req("", "c1", "c2")
	r.ModeConfig.GeneratorModel = "gen"
	_, err := e.run(t, r)
	var se *StageError
	if !errors.As(err, &se) || se.Message != "All verification checkers failed." {
		t.Fatalf("err = %v, want the all-checkers StageError", err)
	}
	names := e.rec.names()
	if names[len(names)-1] != EventError || find[ErrorPayload](t, e.rec, EventError).Message != "All verification checkers failed." {
		t.Errorf("events = %v", names)
	}
	if diff := cmp.Diff([]string{"generate/0/generator/gen", "extract/1/extractor/ext"}, e.store.types()); diff != "" {
		t.Errorf("stages (-want +got):\n%s", diff)
	}
}

func TestExtractorFails(t *testing.T) {
	m := panel()
	m["ext"] = failWith(errModelDown)
	e := newEnv(m, Config{})
	r := req("", "c1")
	r.ModeConfig.GeneratorModel = "gen"
	_, err := e.run(t, r)
	var se *StageError
	if !errors.As(err, &se) || !errors.Is(err, errModelDown) || se.Stage != "extract" {
		t.Fatalf("err = %v", err)
	}
	want := []string{EventStart, EventGenerateStart, EventGenerateComplete, EventExtractStart, EventError}
	if diff := cmp.Diff(want, e.rec.names()); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	if got := find[ErrorPayload](t, e.rec, EventError).Message; got != "Claim extraction failed. Cannot proceed with verification." {
		t.Errorf("error message = %q", got)
	}
	if diff := cmp.Diff([]string{"generate/0/generator/gen"}, e.store.types()); diff != "" {
		t.Errorf("the generated content should be saved (-want +got):\n%s", diff)
	}
}

func TestReporterFails(t *testing.T) {
	for name, rep := range map[string]reply{"error": failWith(errModelDown), "empty answer": answer("  \n")} {
		t.Run(name, func(t *testing.T) {
			m := panel()
			m["rep"] = rep
			e := newEnv(m, Config{})
			res, err := e.run(t, req(article, "c1", "c2"))
			if err != nil {
				t.Fatal(err)
			}
			data := stageData[reportData](t, e.store, "report")
			if !data.Fallback || data.RequestedModel != "rep" {
				t.Errorf("parsedData = %+v, want fallback", data)
			}
			if !res.Report.Fallback || res.Report.Model != BuiltinReporter || !strings.Contains(res.Report.ReportText, "| # | Claim | Verdict | Agreement | Correction |") {
				t.Errorf("report = %+v", res.Report)
			}
			if !slices.Contains(res.Report.Notes, noteReporterFail) {
				t.Errorf("notes = %q", res.Report.Notes)
			}
		})
	}
}

func TestReporterWithoutScore(t *testing.T) {
	m := panel()
	m["rep"] = answer("# Fact-Check Report\n\nLooks fine.")
	e := newEnv(m, Config{})
	res, err := e.run(t, req(article, "c1"))
	if err != nil {
		t.Fatal(err)
	}
	// c1: two VERIFIED, one DISPUTED.
	if res.Report.ReliabilityScore == nil || *res.Report.ReliabilityScore != 67 || !slices.Contains(res.Report.Notes, noteNoScore) {
		t.Errorf("report = %+v", res.Report)
	}
}

func TestTruncation(t *testing.T) {
	e := newEnv(panel(), Config{})
	long := strings.Repeat("Filler words without facts here. ", 20) + "The tail sentence states 42 facts."
	r := req(long, "c1")
	r.ModeConfig.MaxContentLength = new(500)
	res, err := e.run(t, r)
	if err != nil {
		t.Fatal(err)
	}
	note := "[Content truncated to 500 characters. Claims beyond this point were not analyzed.]"
	prompt := e.chat.promptsFor("ext")[0]
	if !strings.Contains(prompt, long[:500]+"\n") || strings.Contains(prompt, "tail sentence") {
		t.Errorf("extractor prompt was not given the first 500 characters")
	}
	if !res.Content.Truncated || res.Content.Note != note || len(res.Content.Text) != 500 || !slices.Contains(res.Report.Notes, note) {
		t.Errorf("content = %+v, notes %q", res.Content, res.Report.Notes)
	}
	if !strings.Contains(res.Report.ReportText, note) {
		t.Error("report text lacks the truncation note")
	}
}

func TestEvenSplit(t *testing.T) {
	m := panel()
	m["c2"] = answer(verifications("DISPUTED HIGH Not 1.1.", "VERIFIED HIGH", "DISPUTED MEDIUM About 27%."))
	e := newEnv(m, Config{})
	res, err := e.run(t, req(article, "c1", "c2"))
	if err != nil {
		t.Fatal(err)
	}
	c := res.Verification.Consensus[0]
	if c.ConsensusVerdict != Disputed || c.ConsensusConfidence != Low || c.AgreementRate != 50 || *c.Correction != "Not 1.1." {
		t.Errorf("claim_1 = %+v", c)
	}
	want := "Checkers split evenly on claim_1 (1 VERIFIED, 1 DISPUTED); it is reported as DISPUTED with LOW confidence."
	if !slices.Contains(res.Report.Notes, want) {
		t.Errorf("notes = %q", res.Report.Notes)
	}
}

func TestBiasWarning(t *testing.T) {
	m := panel()
	m["gen"] = answer(article)
	e := newEnv(m, Config{})
	_, err := e.run(t, Request{Question: "Q?", Mode: "fact_check",
		ModeConfig: &ModeConfig{GeneratorModel: "c1", ExtractorModel: "ext", CheckerModels: []string{"c1", "c2"}, ReporterModel: "rep"}})
	if err != nil {
		t.Fatal(err)
	}
	start := find[StartPayload](t, e.rec, EventStart)
	if start.Config.BiasWarning != "Generator and checker share model — results may be biased toward confirming generated content." {
		t.Errorf("biasWarning = %q", start.Config.BiasWarning)
	}

	// User content has no generator to share.
	e = newEnv(panel(), Config{})
	if _, err := e.run(t, req(article, "c1")); err != nil {
		t.Fatal(err)
	}
	if w := find[StartPayload](t, e.rec, EventStart).Config.BiasWarning; w != "" {
		t.Errorf("biasWarning = %q without a generator", w)
	}
}

func TestWrongClaimIDs(t *testing.T) {
	m := panel()
	m["c1"] = answer("VERIFICATION claim_7: DISPUTED\nEvidence: wrong id\nCorrection: x\nConfidence: HIGH\n\n" +
		"VERIFICATION 1: VERIFIED\nEvidence: bare number\nCorrection: N/A\nConfidence: HIGH\n\n" +
		"VERIFICATION claim_3: DISPUTED\nEvidence: 27%\nCorrection: About 27%.\nConfidence: MEDIUM")
	e := newEnv(m, Config{})
	res, err := e.run(t, req(article, "c1"))
	if err != nil {
		t.Fatal(err)
	}
	vs := res.Verification.Checkers[0].Verifications
	got := []string{vs[0].Verdict + " " + vs[0].Evidence, vs[1].Verdict + " " + vs[1].Evidence, vs[2].Verdict + " " + vs[2].Evidence}
	want := []string{"VERIFIED bare number", "UNVERIFIABLE Checker did not address this claim", "DISPUTED 27%"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("verifications (-want +got):\n%s", diff)
	}
}

func TestDuplicateClaims(t *testing.T) {
	m := panel()
	m["ext"] = answer(extraction + "\n\nCLAIM 4: China produces 30% of global emissions\nContext: again\nType: STATISTIC\n\n" +
		"CLAIM 5: China produces 30 % of global emissions\nContext: similar\nType: STATISTIC")
	e := newEnv(m, Config{})
	res, err := e.run(t, req(article, "c1"))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, c := range res.Extraction.Claims {
		ids = append(ids, c.ID+": "+c.Claim)
	}
	want := []string{
		"claim_1: Global temperatures have risen by 1.1 degrees Celsius since pre-industrial times",
		"claim_2: The Paris Agreement was signed in 2015 by 196 countries",
		"claim_3: China produces 30% of global emissions",
		"claim_4: China produces 30 % of global emissions",
	}
	if diff := cmp.Diff(want, ids); diff != "" {
		t.Errorf("claims (-want +got):\n%s", diff)
	}
	if p := e.chat.promptsFor("c1")[0]; strings.Count(p, "China produces 30% of global emissions\nContext") != 1 {
		t.Errorf("the duplicate reached the checker prompt")
	}
}

// TestStageTimeouts runs each stage into the per-stage timeout.
func TestStageTimeouts(t *testing.T) {
	const timeout = 300 * time.Millisecond
	gen := func(r Request) Request {
		r.ModeConfig.GeneratorModel, r.ModeConfig.ContentToCheck = "gen", ""
		return r
	}
	tests := []struct {
		name    string
		model   string
		request Request
		check   func(t *testing.T, e *testEnv, res Result, err error)
	}{
		{"generate falls back to the question", "gen", gen(req("", "c1")), func(t *testing.T, e *testEnv, res Result, err error) {
			if err != nil {
				t.Fatal(err)
			}
			if res.Content.Text != "Fact-check this article" || !slices.Contains(res.Report.Notes, noteGenFallback) {
				t.Errorf("content = %+v, notes %q", res.Content, res.Report.Notes)
			}
			if d := stageData[generateData](t, e.store, "generate"); !d.Fallback {
				t.Errorf("generate parsedData = %+v", d)
			}
		}},
		{"extract is fatal", "ext", req(article, "c1"), func(t *testing.T, e *testEnv, res Result, err error) {
			if !errors.Is(err, errStageTimeout) || find[ErrorPayload](t, e.rec, EventError).Message != msgExtractFailed {
				t.Errorf("err = %v", err)
			}
		}},
		{"verify goes on with the checkers that finished", "c2", req(article, "c1", "c2"), func(t *testing.T, e *testEnv, res Result, err error) {
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Verification.Checkers) != 1 || res.Verification.Failed[0] != (CheckerFailure{Model: "c2", Error: "timed out after 300ms"}) {
				t.Errorf("verification = %+v", res.Verification)
			}
		}},
		{"report falls back to the template", "rep", req(article, "c1"), func(t *testing.T, e *testEnv, res Result, err error) {
			if err != nil {
				t.Fatal(err)
			}
			if !res.Report.Fallback {
				t.Errorf("report = %+v", res.Report)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := panel()
			m[tt.model] = hang
			e := newEnv(m, Config{StageTimeout: timeout})
			res, err := e.run(t, tt.request)
			tt.check(t, e, res, err)
		})
	}
}

func TestGlobalTimeoutReturnsPartialResult(t *testing.T) {
	m := panel()
	var e *testEnv
	m["c1"] = func(ctx context.Context, p string) (string, error) {
		e.clock.Advance(11 * time.Minute) // the checker runs past the 10-minute budget
		return panel()["c1"](ctx, p)
	}
	e = newEnv(m, Config{GlobalTimeout: 10 * time.Minute})
	res, err := e.run(t, req(article, "c1", "c2"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{EventStart, EventExtractStart, EventExtractComplete, EventVerifyStart, EventCheckerComplete, EventCheckerComplete,
		EventAllCheckers, EventTitleComplete, EventComplete}
	if diff := cmp.Diff(want, e.rec.names()); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	if got := find[CompletePayload](t, e.rec, EventComplete); !got.Partial || !cmp.Equal(got.SkippedStages, []string{"report"}) {
		t.Errorf("complete = %+v", got)
	}
	if !res.Partial || len(res.Verification.Consensus) != 3 || len(e.chat.promptsFor("rep")) != 0 {
		t.Errorf("result = %+v", res)
	}
	md := RenderMarkdown(res)
	for _, s := range []string{"Partial result", "skipped report", "| claim_3 | China produces 30% of global emissions | DISPUTED | 100% | About 27%. |"} {
		if !strings.Contains(md, s) {
			t.Errorf("markdown lacks %q:\n%s", s, md)
		}
	}
}

// TestCancelKeepsCompletedStages cancels the run (a client that goes away)
// mid-verify; the stages done so far stay stored, including a checker that
// finished just as the client left.
func TestCancelKeepsCompletedStages(t *testing.T) {
	tests := []struct {
		name string
		// cancelIn is the model that cancels as it answers; "" cancels on
		// the first checker_complete event.
		cancelIn string
	}{
		{"after the fast checker's event", ""},
		{"while the fast checker answers", "c1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			m := panel()
			m["c2"] = hang
			if tt.cancelIn != "" {
				m[tt.cancelIn] = func(ctx context.Context, p string) (string, error) {
					cancel()
					return panel()[tt.cancelIn](ctx, p)
				}
			}
			e := newEnv(m, Config{})
			e.rec.on = func(ev Event) {
				if ev.Name == EventCheckerComplete && tt.cancelIn == "" {
					cancel()
				}
			}
			r := req("", "c1", "c2")
			r.ModeConfig.GeneratorModel = "gen"
			_, err := e.p.Run(ctx, r, e.rec.emit)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("err = %v, want context.Canceled", err)
			}
			if got := find[ErrorPayload](t, e.rec, EventError).Message; got != msgCanceled {
				t.Errorf("error event = %q", got)
			}
			want := []string{"generate/0/generator/gen", "extract/1/extractor/ext", "verify_0/10/checker/c1"}
			if diff := cmp.Diff(want, e.store.types()); diff != "" {
				t.Errorf("stages after cancel (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSlowCheckerDoesNotDelayFastOnes holds c1 until the pipeline has
// emitted c2's event: if events waited for every checker, c1 would time out.
func TestSlowCheckerDoesNotDelayFastOnes(t *testing.T) {
	release := make(chan struct{})
	m := panel()
	m["c1"] = func(ctx context.Context, p string) (string, error) {
		select {
		case <-release:
			return panel()["c1"](ctx, p)
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
	e := newEnv(m, Config{StageTimeout: 30 * time.Second})
	var once sync.Once
	e.rec.on = func(ev Event) {
		if ev.Name == EventCheckerComplete && ev.Data.(CheckerCompletePayload).Model == "c2" {
			once.Do(func() { close(release) })
		}
	}
	res, err := e.run(t, req(article, "c1", "c2"))
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, ev := range e.rec.events {
		if ev.Name == EventCheckerComplete {
			order = append(order, ev.Data.(CheckerCompletePayload).Model)
		}
	}
	if diff := cmp.Diff([]string{"c2", "c1"}, order); diff != "" {
		t.Errorf("checker_complete order (-want +got):\n%s", diff)
	}
	// The result lists checkers in request order, whatever order they finished.
	if res.Verification.Checkers[0].Model != "c1" || res.Verification.Checkers[1].Model != "c2" {
		t.Errorf("checkers = %s, %s", res.Verification.Checkers[0].Model, res.Verification.Checkers[1].Model)
	}
}

func TestCheckersRunWithinTheBound(t *testing.T) {
	var started atomic.Int32
	block := func(ctx context.Context, _ string) (string, error) {
		if ctx.Err() == nil {
			started.Add(1)
		}
		<-ctx.Done()
		return "", ctx.Err()
	}
	m := panel()
	m["c1"], m["c2"], m["c3"], m["c4"] = block, block, block, block
	e := newEnv(m, Config{MaxParallelCheckers: 2, StageTimeout: 200 * time.Millisecond})
	_, err := e.run(t, req(article, "c1", "c2", "c3", "c4"))
	var se *StageError
	if !errors.As(err, &se) || se.Message != msgAllCheckers {
		t.Fatalf("err = %v", err)
	}
	if n := started.Load(); n != 2 {
		t.Errorf("%d checkers ran at once, want the bound of 2", n)
	}
}

func TestCheckerPanicIsAFailure(t *testing.T) {
	m := panel()
	m["c2"] = func(context.Context, string) (string, error) { panic("checker bug") }
	e := newEnv(m, Config{})
	res, err := e.run(t, req(article, "c1", "c2"))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Verification.Failed) != 1 || res.Verification.Failed[0].Model != "c2" {
		t.Errorf("failed = %+v", res.Verification.Failed)
	}
}

func TestStoreFailureEndsTheRun(t *testing.T) {
	e := newEnv(panel(), Config{})
	e.store.err = errors.New("disk full")
	_, err := e.run(t, req(article, "c1"))
	var se *StageError
	if !errors.As(err, &se) || se.Message != msgSaveFailed {
		t.Fatalf("err = %v", err)
	}
	if got := find[ErrorPayload](t, e.rec, EventError).Message; got != msgSaveFailed {
		t.Errorf("error event = %q", got)
	}
}

func TestExistingConversationGetsNoTitle(t *testing.T) {
	e := newEnv(panel(), Config{})
	r := req(article, "c1")
	r.ConversationID = "conv-7"
	res, err := e.run(t, r)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(e.rec.names(), EventTitleComplete) || res.Title != "" || res.ConversationID != "conv-7" {
		t.Errorf("events %v, result title %q conversation %q", e.rec.names(), res.Title, res.ConversationID)
	}
}

func TestMakeTitle(t *testing.T) {
	long := "What are the key facts about the history of the Internet, from ARPANET to the World Wide Web and beyond?"
	got := makeTitle(long)
	if got != "What are the key facts about the history of the Internet, from ARPANET to the…" {
		t.Errorf("title = %q", got)
	}
	if got := makeTitle("  Short\nquestion? "); got != "Short question?" {
		t.Errorf("title = %q", got)
	}
}

func TestLoad(t *testing.T) {
	e := newEnv(nil, Config{})
	if _, err := e.p.Load(context.Background(), "nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("err = %v, want ErrNotFound", err)
	}
	// Consensus is recomputed from the stored verifications, not stored.
	put := func(typ string, order int, model string, data any) {
		b, _ := json.Marshal(data)
		e.store.stages = append(e.store.stages, corpusStage("m1", typ, order, model, b))
	}
	claims := []ExtractedClaim{{ID: "claim_1", Claim: "A", Type: "DATE"}}
	put("extract", 1, "ext", extractData{Claims: claims, TotalClaims: 1, ContentText: "A."})
	put("verify_0", 10, "c1", verifyData{Verifications: []ClaimVerification{{ClaimID: "claim_1", Verdict: Verified, Confidence: High, CheckerModel: "c1"}}})
	put("verify_1", 11, "c2", verifyData{Verifications: []ClaimVerification{{ClaimID: "claim_1", Verdict: Disputed, Confidence: High, CheckerModel: "c2"}}})
	res, err := e.p.Load(context.Background(), "m1")
	if err != nil {
		t.Fatal(err)
	}
	if c := res.Verification.Consensus[0]; c.ConsensusVerdict != Disputed || c.AgreementRate != 50 {
		t.Errorf("consensus = %+v", c)
	}
	if res.Content.Text != "A." || res.Content.Source != SourceUserProvided || res.Report.Model != "unknown" {
		t.Errorf("result = %+v", res)
	}
}

// BenchmarkRunBuiltin runs the whole pipeline with built-in roles and an
// in-memory store: the pipeline's own cost, without models or retrieval.
func BenchmarkRunBuiltin(b *testing.B) {
	e := newEnv(nil, Config{})
	r := Request{Question: "Check", Mode: "fact_check", ModeConfig: &ModeConfig{ContentToCheck: strings.Repeat(article+" ", 20)}}
	for b.Loop() {
		if _, err := e.p.Run(context.Background(), r, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// TestExtractEventCarriesResolvedClaim: the extract_complete event and the
// result carry the claim with its subject resolved beside the sentence as
// the text wrote it, and the checkers check the resolved claim.
func TestExtractEventCarriesResolvedClaim(t *testing.T) {
	e := newEnv(nil, Config{})
	e.verifier.results = map[string]evidence.Result{
		"The Golden Gate Bridge opened in 1937": {Verdict: evidence.Supported, Score: 90},
	}
	content := "The Golden Gate Bridge spans the Golden Gate strait. It opened in 1937."
	res, err := e.run(t, Request{Question: "Check this", Mode: "fact_check", ModeConfig: &ModeConfig{ContentToCheck: content}})
	if err != nil {
		t.Fatal(err)
	}
	ext := find[ExtractCompletePayload](t, e.rec, EventExtractComplete)
	var got []string
	for _, c := range ext.Claims {
		got = append(got, c.Claim+" | "+c.Original)
	}
	want := []string{"The Golden Gate Bridge spans the Golden Gate strait | ", "The Golden Gate Bridge opened in 1937 | It opened in 1937."}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("extract_complete claims (-want +got):\n%s", diff)
	}
	all := find[AllCheckersPayload](t, e.rec, EventAllCheckers)
	if len(all.Consensus) != 2 || all.Consensus[1].Original != "It opened in 1937." {
		t.Errorf("all_checkers_complete consensus %+v, want the original beside the resolved claim", all.Consensus)
	}
	if c := res.Verification.Consensus[1]; c.Original != "It opened in 1937." || c.ConsensusVerdict != Verified {
		t.Errorf("consensus %+v, want the resolved claim verified beside its original", c)
	}
}
