package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/discspan/discspan/internal/atomicfile"
)

// load reads the job records; queued and running jobs are queued again (by
// id, which is creation order). It removes what a killed server left, and
// only that: the temporaries of its own atomic writes, models it staged,
// and the directories of uploads it was receiving (a directory counts as
// the server's when its name is an id it hands out and it holds the job's
// record or the server's marker; see reserve). Everything else is left
// alone: a directory with a bad record is logged, other numbered names
// are logged on one line. The next id is above every numbered name of the
// jobs directory, every model installed there (job-<id>.safetensors, see
// install) and the last id handed out, so that an id is never reused.
func (m *jobs) load() error {
	if _, err := atomicfile.RemoveTemps(m.lastIDPath()); err != nil {
		return fmt.Errorf("server: %w", err)
	}
	if err := m.loadModels(); err != nil {
		return err
	}
	if b, err := os.ReadFile(m.lastIDPath()); err == nil {
		if n, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && n >= 0 && n < math.MaxInt {
			m.next = max(m.next, n+1)
		} else {
			m.logf("server: %s: %q is no job id (ignored)", m.lastIDPath(), b)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		m.logf("server: %v (ignored)", err)
	}
	ents, err := os.ReadDir(m.dir)
	if err != nil {
		return fmt.Errorf("server: %w", err)
	}
	var ids []int
	var foreign []string
	for _, e := range ents {
		n, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if n < math.MaxInt {
			m.next = max(m.next, n+1) // ours or not: never handed out
		}
		if n < 1 || e.Name() != strconv.Itoa(n) || !e.IsDir() {
			foreign = append(foreign, e.Name())
			continue
		}
		j, ok, err := m.loadJob(e.Name())
		if err != nil {
			m.logf("server: job %s: %v (left as it is; its id is not handed out again)", e.Name(), err)
		}
		if !ok {
			if err == nil {
				foreign = append(foreign, e.Name())
			}
			continue
		}
		if j == nil { // an unfinished upload, removed
			continue
		}
		m.all[j.ID] = j
		if j.State == JobRunning && j.Model != "" {
			// Killed while installing its model: installed if its name
			// is taken (the name is saved first, then taken).
			if _, err := os.Stat(filepath.Join(m.modelsDir, j.Model+".safetensors")); err == nil {
				m.finishLocked(j, JobDone, "")
				continue
			}
			j.Model = ""
		}
		if j.State == JobRunning {
			j.Resumed++
			if !j.Stopped {
				j.Aborted++
			}
			if j.Aborted >= MaxAborted {
				// Failed, but its data kept (a reboot and an unrelated
				// kill look the same from here): DELETE removes it.
				now := time.Now().UTC()
				j.State, j.Finished = JobFailed, &now
				j.Error = fmt.Sprintf("the server ended %d times while training this job, without stopping it (killed, or out of memory?): it is not resumed again; its upload and checkpoint are kept in the jobs folder until the job is deleted", j.Aborted)
				if err := m.saveLocked(j); err != nil {
					m.logf("server: job %s: %v", j.ID, err)
				}
				continue
			}
		}
		if j.State.final() && j.Aborted < MaxAborted {
			// A server killed between a job's record saying finished
			// and the removal of its data left that data for good.
			m.cleanup(j.ID)
		} else if !j.State.final() {
			ids = append(ids, n)
		}
	}
	if len(foreign) > 0 {
		m.logf("server: jobs folder %s: not made by the server, left alone: %s (new job ids are above them)", m.dir, listNames(foreign, 10))
	}
	slices.Sort(ids)
	for _, n := range ids {
		m.queue = append(m.queue, strconv.Itoa(n))
	}
	return nil
}

// listNames lists names, at most max of them.
func listNames(names []string, max int) string {
	if len(names) <= max {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:max], ", "), len(names)-max)
}

// loadModels removes the models the jobs staged and the temporaries of
// their writes (only those: the models directory may be the operator's
// weights folder, where other programs write), and moves the next id
// above every installed job model, job-<id>.safetensors or
// job-<id>-<k>.safetensors.
func (m *jobs) loadModels() error {
	ents, err := os.ReadDir(m.modelsDir)
	if err != nil {
		return fmt.Errorf("server: %w", err)
	}
	for _, e := range ents {
		name := e.Name()
		if n, ok := modelID(name); ok && n < math.MaxInt {
			m.next = max(m.next, n+1)
		}
		// A model staged by a server that stopped before installing it
		// (a job that still needs its model stages it again when it
		// resumes), or a temporary of its write.
		own := strings.HasPrefix(name, ".job-") || strings.HasPrefix(name, "..job-")
		stale := own && (strings.HasSuffix(name, stagedExt) || strings.Contains(name, ".tmp-"))
		if !stale || !e.Type().IsRegular() {
			continue
		}
		if err := os.Remove(filepath.Join(m.modelsDir, name)); err != nil {
			m.logf("server: %v", err)
		}
	}
	return nil
}

// modelID returns the job id of a model file's name (job-<id>.safetensors
// or job-<id>-<k>.safetensors).
func modelID(name string) (int, bool) {
	s, ok := strings.CutPrefix(name, "job-")
	if !ok {
		return 0, false
	}
	if s, ok = strings.CutSuffix(s, ".safetensors"); !ok {
		return 0, false
	}
	s, _, _ = strings.Cut(s, "-")
	n, err := strconv.Atoi(s)
	return n, err == nil && s == strconv.Itoa(n)
}

// loadJob reads the directory of job id at start. ok is false when the
// directory is left as it is (not the server's, or, with err, its record
// cannot be read); j is nil when it was an unfinished upload, now removed.
func (m *jobs) loadJob(id string) (j *Job, ok bool, err error) {
	d := m.jobDir(id)
	b, err := os.ReadFile(filepath.Join(d, jobRecord))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, m.removeUpload(id), nil
	}
	if err != nil {
		return nil, false, err
	}
	j = new(Job)
	if err := json.Unmarshal(b, j); err != nil {
		return nil, false, fmt.Errorf("bad record %s: %w", jobRecord, err)
	}
	if j.ID != id {
		return nil, false, fmt.Errorf("bad record %s: of job %q", jobRecord, j.ID)
	}
	if _, err := atomicfile.SweepDir(d); err != nil {
		m.logf("server: job %s: %v", id, err)
	}
	return j, true, nil
}

// removeUpload removes the directory of an upload the server did not
// finish receiving, and reports whether it did: only a directory with the
// server's marker and no other entries than an upload's files (and the
// temporaries of the job's record) is one.
func (m *jobs) removeUpload(id string) bool {
	d := m.jobDir(id)
	ents, err := os.ReadDir(d)
	if err != nil || !slices.ContainsFunc(ents, func(e fs.DirEntry) bool { return e.Name() == jobMarker }) {
		return false
	}
	for _, e := range ents {
		name := e.Name()
		known := name == jobMarker || name == jobUploadTemp || name == jobTrain || name == jobDev ||
			strings.HasPrefix(name, jobUploaded) || strings.HasPrefix(name, "."+jobRecord+".tmp-")
		if !known || !e.Type().IsRegular() {
			return false
		}
	}
	if err := os.RemoveAll(d); err != nil {
		m.logf("server: job %s: %v", id, err)
	}
	return true
}
