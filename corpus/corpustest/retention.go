package corpustest

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/verity-fc/verity/corpus"
	"github.com/verity-fc/verity/evidence"
)

// testLiveJobs checks that LiveJobs returns every queued and running job,
// oldest first, beyond the largest page of ListJobs.
func testLiveJobs(t *testing.T, s corpus.Store) {
	ctx := context.Background()
	var want []string
	n := corpus.MaxListLimit + 400
	for i := range n {
		j := job(fmt.Sprintf("j%05d", i), day.Add(time.Duration(i)*time.Second))
		switch i % 8 {
		case 0, 3:
			j.State = corpus.JobRunning
		case 1:
			j.State, j.FinishedAt = corpus.JobSucceeded, j.CreatedAt
		case 2:
			j.State, j.FinishedAt, j.Message = corpus.JobFailed, j.CreatedAt, "x"
		}
		if err := s.CreateJob(ctx, j); err != nil {
			t.Fatal(err)
		}
		if !j.State.Final() {
			want = append(want, j.ID)
		}
	}
	got, err := s.LiveJobs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, j := range got {
		ids = append(ids, j.ID)
		if j.State.Final() {
			t.Errorf("LiveJobs returned %s in state %s", j.ID, j.State)
		}
	}
	if diff := cmp.Diff(want, ids); diff != "" {
		t.Errorf("LiveJobs (-want +got):\n%s", diff)
	}
	if len(want) <= corpus.MaxListLimit {
		t.Fatalf("the test needs more than %d live jobs, has %d", corpus.MaxListLimit, len(want))
	}
}

// testPrune checks that Prune deletes old stages and old final jobs and
// nothing else: not newer ones, not live jobs however old, not sources.
func testPrune(t *testing.T, s corpus.Store) {
	ctx := context.Background()
	old, cutoff, recent := day, day.Add(24*time.Hour), day.Add(48*time.Hour)
	if err := s.PutSource(ctx, source("kept", func(src *evidence.Source) { src.IngestedAt = old })); err != nil {
		t.Fatal(err)
	}
	for _, st := range []corpus.Stage{
		{ID: "old-a", MessageID: "m-old", StageType: "generate", CreatedAt: old},
		{ID: "old-b", MessageID: "m-old", StageType: "report", StageOrder: 99, CreatedAt: old, ParsedData: []byte(`{"x":1}`)},
		{ID: "new-a", MessageID: "m-new", StageType: "generate", CreatedAt: recent},
	} {
		if err := s.PutStage(ctx, st); err != nil {
			t.Fatal(err)
		}
	}
	final := func(id string, finished time.Time, state corpus.JobState) corpus.Job {
		j := job(id, finished.Add(-time.Minute))
		j.State, j.FinishedAt, j.UpdatedAt, j.Done, j.Ingested = state, finished, finished, 2, 2
		return j
	}
	liveOld := job("live-old", old.Add(-time.Hour))
	runningOld := job("running-old", old.Add(-time.Hour))
	runningOld.State = corpus.JobRunning
	for _, j := range []corpus.Job{
		final("done-old", old, corpus.JobSucceeded), final("failed-old", old, corpus.JobFailed),
		final("done-new-1", recent, corpus.JobSucceeded), final("done-new-2", recent.Add(time.Minute), corpus.JobSucceeded),
		final("done-new-3", recent.Add(2*time.Minute), corpus.JobSucceeded), liveOld, runningOld,
	} {
		if err := s.CreateJob(ctx, j); err != nil {
			t.Fatal(err)
		}
	}

	if got, err := s.Prune(ctx, corpus.PruneOptions{}); err != nil || got != (corpus.Pruned{}) {
		t.Fatalf("Prune with no options = %+v, %v; want nothing deleted", got, err)
	}
	got, err := s.Prune(ctx, corpus.PruneOptions{StagesBefore: cutoff, JobsBefore: cutoff})
	if err != nil {
		t.Fatal(err)
	}
	if want := (corpus.Pruned{Stages: 2, Jobs: 2}); got != want {
		t.Errorf("Prune = %+v, want %+v", got, want)
	}
	if st, _ := s.Stages(ctx, "m-old"); len(st) != 0 {
		t.Errorf("old stages kept: %+v", st)
	}
	if st, _ := s.Stages(ctx, "m-new"); len(st) != 1 {
		t.Errorf("new stages = %+v, want the one", st)
	}
	jobIDs := func() []string {
		js, err := s.ListJobs(ctx, corpus.MaxListLimit)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, j := range js {
			ids = append(ids, j.ID)
		}
		slices.Sort(ids)
		return ids
	}
	if diff := cmp.Diff([]string{"done-new-1", "done-new-2", "done-new-3", "live-old", "running-old"}, jobIDs()); diff != "" {
		t.Errorf("jobs after pruning by age (-want +got):\n%s", diff)
	}

	got, err = s.Prune(ctx, corpus.PruneOptions{KeepJobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	if got.Jobs != 2 {
		t.Errorf("Prune(KeepJobs: 1) deleted %d jobs, want 2", got.Jobs)
	}
	if diff := cmp.Diff([]string{"done-new-3", "live-old", "running-old"}, jobIDs()); diff != "" {
		t.Errorf("jobs after keeping 1 final job (-want +got):\n%s", diff)
	}
	if _, err := s.Source(ctx, "kept"); err != nil {
		t.Errorf("a source was pruned: %v", err)
	}
	if st, _ := s.Stats(ctx); st.Sources != 1 || st.Passages != 3 {
		t.Errorf("stats after pruning = %+v, want the source and its passages", st)
	}
}

// testUsage checks the counts and sizes of Usage.
func testUsage(t *testing.T, s corpus.Store) {
	ctx := context.Background()
	empty, err := s.Usage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if empty.Jobs != 0 || empty.Stages != 0 || empty.StageBytes != 0 || empty.DatabaseBytes <= 0 {
		t.Errorf("empty store usage = %+v", empty)
	}
	done := job("done", day)
	done.State, done.FinishedAt = corpus.JobSucceeded, day
	for _, j := range []corpus.Job{job("live", day), done} {
		if err := s.CreateJob(ctx, j); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.PutStage(ctx, corpus.Stage{ID: "s", MessageID: "m", StageType: "report", Content: "héllo", ParsedData: []byte(`{"a":1}`), CreatedAt: day}); err != nil {
		t.Fatal(err)
	}
	u, err := s.Usage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if u.Jobs != 2 || u.LiveJobs != 1 || u.Stages != 1 {
		t.Errorf("usage = %+v, want 2 jobs, 1 live, 1 stage", u)
	}
	// "héllo" is 6 bytes; the parsed data 7 as written (jsonb may respace it).
	if u.StageBytes < 6+7 || u.StageBytes > 6+10 {
		t.Errorf("stage bytes = %d, want about 13", u.StageBytes)
	}
}
