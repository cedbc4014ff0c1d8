package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/discspan/discspan/internal/atomicfile"
	"github.com/discspan/discspan/train"
)

// JobState is the state of a training job.
type JobState string

// Job states. Done, failed and cancelled are final.
const (
	JobQueued    JobState = "queued"
	JobRunning   JobState = "running"
	JobDone      JobState = "done"
	JobFailed    JobState = "failed"
	JobCancelled JobState = "cancelled"
)

func (s JobState) final() bool { return s == JobDone || s == JobFailed || s == JobCancelled }

// Job is a training job as GET /api/jobs/{id} shows it (and as its record
// job.json in the jobs directory holds it).
type Job struct {
	ID             string     `json:"id"`
	State          JobState   `json:"state"`
	Preset         string     `json:"preset"`
	Device         string     `json:"device"`
	Format         string     `json:"format"` // of the upload
	TrainSentences int        `json:"train_sentences"`
	DevSentences   int        `json:"dev_sentences"`
	Epoch          int        `json:"epoch"` // current (1-based) epoch
	Epochs         int        `json:"epochs"`
	Step           int        `json:"step"` // batches done in the epoch
	Steps          int        `json:"steps"`
	Loss           float64    `json:"loss"`
	DevF1          float64    `json:"dev_f1"` // of the last finished epoch
	BestDevF1      float64    `json:"best_dev_f1"`
	Created        time.Time  `json:"created"`
	Started        *time.Time `json:"started,omitempty"`
	Finished       *time.Time `json:"finished,omitempty"`
	Error          string     `json:"error,omitempty"`
	// Model is the name of the finished model in /api/models: "job-<id>",
	// or "job-<id>-<k>" when a file had taken that name (see install).
	Model string `json:"model,omitempty"`
	// History has one entry per finished epoch.
	History []EpochStat `json:"history,omitempty"`
	// Resumed counts the restarts of the server the job survived while running.
	Resumed int `json:"resumed,omitempty"`
}

// EpochStat is one finished epoch of a job.
type EpochStat struct {
	Epoch     int     `json:"epoch"`
	Loss      float64 `json:"loss"` // mean per-sentence training loss
	DevF1     float64 `json:"dev_f1"`
	BestDevF1 float64 `json:"best_dev_f1"`
}

// jobs is the job queue of one device: one job runs at a time, the others
// wait in FIFO order.
type jobs struct {
	dir, modelsDir, device string
	maxQueue, maxWords     int
	defaults               func(*train.Options)
	logf                   func(string, ...any)
	// afterRun, when set (tests), is called when a job's run has returned,
	// before its end is recorded.
	afterRun func(id string)

	mu         sync.Mutex
	all        map[string]*Job
	queue      []string
	next       int
	running    string
	cancelRun  context.CancelFunc
	userCancel bool
	subs       map[string]map[chan struct{}]bool

	wake chan struct{}
	ctx  context.Context
	stop context.CancelFunc
	done chan struct{}
}

// Files of a job directory.
const (
	jobRecord   = "job.json"
	jobTrain    = "train.discbracket"
	jobDev      = "dev.discbracket"
	jobOut      = "model.safetensors"
	jobUploaded = "upload."
	// jobMarker is written first into every job directory the server
	// makes: at start, only a directory with it (or with a job record) is
	// the server's to clean.
	jobMarker = ".discspan-job"
)

// lastIDFile, in the jobs directory, holds the last job id handed out
// when a job was deleted, so that the next server does not hand out the
// id of a deleted job again.
const lastIDFile = ".discspan-last-id"

func newJobs(dir, modelsDir, device string, maxQueue, maxWords int, defaults func(*train.Options), logf func(string, ...any)) (*jobs, error) {
	for _, d := range []string{dir, modelsDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, fmt.Errorf("server: %w", err)
		}
	}
	m := &jobs{dir: dir, modelsDir: modelsDir, device: device, maxQueue: maxQueue, maxWords: maxWords, defaults: defaults, logf: logf,
		all: map[string]*Job{}, next: 1, subs: map[string]map[chan struct{}]bool{}, wake: make(chan struct{}, 1), done: make(chan struct{})}
	if err := m.load(); err != nil {
		return nil, err
	}
	m.ctx, m.stop = context.WithCancel(context.Background())
	go m.loop()
	return m, nil
}

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
		if !j.State.final() {
			if j.State == JobRunning {
				j.Resumed++
			}
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

// close stops the worker: a running job is interrupted (its checkpoint
// written) and stays "running" on disk, to be resumed by the next server.
func (m *jobs) close() {
	m.stop()
	<-m.done
}

func (m *jobs) jobDir(id string) string { return filepath.Join(m.dir, id) }

// errQueueFull refuses a job while maxQueue jobs wait.
var errQueueFull = errors.New("the job queue is full")

// queueFull reports whether maxQueue jobs wait already.
func (m *jobs) queueFull() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.queue) >= m.maxQueue
}

// reserve creates the directory of a new job and returns its id. The job
// exists once add has recorded it; discard removes the directory of one
// that never was. An id whose name exists in the jobs directory is
// skipped: a job never starts in a directory it did not make. The
// directory gets the server's marker first (see load).
func (m *jobs) reserve() (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for {
		if m.next < 1 || m.next == math.MaxInt {
			return "", errors.New("server: no job id left")
		}
		id := strconv.Itoa(m.next)
		m.next++
		err := os.Mkdir(m.jobDir(id), 0o755)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("server: %w", err)
		}
		if err := os.WriteFile(filepath.Join(m.jobDir(id), jobMarker), []byte("discspan serve: job "+id+"\n"), 0o644); err != nil {
			_ = os.RemoveAll(m.jobDir(id))
			return "", fmt.Errorf("server: %w", err)
		}
		return id, nil
	}
}

func (m *jobs) lastIDPath() string { return filepath.Join(m.dir, lastIDFile) }

// discard removes a reserved job's directory.
func (m *jobs) discard(id string) {
	if err := os.RemoveAll(m.jobDir(id)); err != nil {
		m.logf("server: job %s: %v", id, err)
	}
}

// add records and queues a reserved job whose upload has been converted
// into its directory (errQueueFull when maxQueue jobs wait).
func (m *jobs) add(id string, c converted, preset string, epochs int) (Job, error) {
	j := &Job{ID: id, State: JobQueued, Preset: preset, Device: m.device, Format: c.Format.String(),
		TrainSentences: c.Train, DevSentences: c.Dev, Epochs: epochs, Created: time.Now().UTC()}
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.queue) >= m.maxQueue {
		return Job{}, errQueueFull
	}
	if err := m.saveLocked(j); err != nil {
		return Job{}, err
	}
	m.all[id] = j
	m.queue = append(m.queue, id)
	m.notifyLocked(id)
	select {
	case m.wake <- struct{}{}:
	default:
	}
	return *j, nil
}

// get returns a copy of a job.
func (m *jobs) get(id string) (Job, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	j, ok := m.all[id]
	if !ok {
		return Job{}, false
	}
	c := *j
	c.History = slices.Clone(j.History)
	return c, true
}

// list returns all jobs by id.
func (m *jobs) list() []Job {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]Job, 0, len(m.all))
	for _, j := range m.all {
		c := *j
		c.History = slices.Clone(j.History)
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b Job) int {
		x, _ := strconv.Atoi(a.ID)
		y, _ := strconv.Atoi(b.ID)
		return x - y
	})
	return out
}

// cancel cancels a queued or running job; it returns the job and whether it
// exists.
func (m *jobs) cancel(id string) (Job, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	j, ok := m.all[id]
	if !ok {
		return Job{}, false
	}
	switch {
	case id == m.running:
		m.userCancel = true
		m.cancelRun()
	case j.State == JobQueued || j.State == JobRunning:
		m.queue = slices.DeleteFunc(m.queue, func(q string) bool { return q == id })
		m.finishLocked(j, JobCancelled, "")
	}
	return *j, true
}

// subscribe returns a channel that receives a value (coalesced) whenever
// the job changes, and a function to unsubscribe.
func (m *jobs) subscribe(id string) (<-chan struct{}, func()) {
	c := make(chan struct{}, 1)
	m.mu.Lock()
	if m.subs[id] == nil {
		m.subs[id] = map[chan struct{}]bool{}
	}
	m.subs[id][c] = true
	m.mu.Unlock()
	return c, func() {
		m.mu.Lock()
		delete(m.subs[id], c)
		if len(m.subs[id]) == 0 {
			delete(m.subs, id)
		}
		m.mu.Unlock()
	}
}

func (m *jobs) notifyLocked(id string) {
	for c := range m.subs[id] {
		select {
		case c <- struct{}{}:
		default:
		}
	}
}

func (m *jobs) saveLocked(j *Job) error {
	b, err := json.MarshalIndent(j, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteBytes(filepath.Join(m.jobDir(j.ID), jobRecord), append(b, '\n'))
}

func (m *jobs) finishLocked(j *Job, s JobState, msg string) {
	now := time.Now().UTC()
	j.State, j.Finished, j.Error = s, &now, msg
	if err := m.saveLocked(j); err != nil {
		m.logf("server: job %s: %v", j.ID, err)
	}
	m.cleanup(j.ID)
	m.notifyLocked(j.ID)
}

// cleanup removes the files a finished job no longer needs: the upload,
// the train/dev split, the checkpoint and the weights (a done job's are
// in the models directory). The record, the training log and the
// server's marker stay.
func (m *jobs) cleanup(id string) {
	d := m.jobDir(id)
	ents, err := os.ReadDir(d)
	if err != nil {
		m.logf("server: job %s: %v", id, err)
		return
	}
	for _, e := range ents {
		if name := e.Name(); name != jobRecord && name != jobOut+".log.jsonl" && name != jobMarker {
			if err := os.RemoveAll(filepath.Join(d, name)); err != nil {
				m.logf("server: job %s: %v", id, err)
			}
		}
	}
}

// remove deletes a finished job: its record and directory (not its model);
// the last id handed out is recorded first (see lastIDFile).
// It reports whether the job existed and was finished.
func (m *jobs) remove(id string) (existed, finished bool, err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	j, ok := m.all[id]
	if !ok {
		return false, false, nil
	}
	if !j.State.final() {
		return true, false, nil
	}
	// Recorded before the directory goes: the id is never handed out again.
	if err := atomicfile.WriteBytes(m.lastIDPath(), []byte(strconv.Itoa(m.next-1)+"\n")); err != nil {
		return true, true, fmt.Errorf("server: job %s: %w", id, err)
	}
	if err := os.RemoveAll(m.jobDir(id)); err != nil {
		return true, true, fmt.Errorf("server: job %s: %w", id, err)
	}
	delete(m.all, id)
	m.notifyLocked(id)
	return true, true, nil
}

// loop runs the queued jobs one at a time until close.
func (m *jobs) loop() {
	defer close(m.done)
	for {
		m.mu.Lock()
		for len(m.queue) == 0 && m.ctx.Err() == nil {
			m.mu.Unlock()
			select {
			case <-m.wake:
			case <-m.ctx.Done():
			}
			m.mu.Lock()
		}
		if m.ctx.Err() != nil {
			m.mu.Unlock()
			return
		}
		id := m.queue[0]
		m.queue = m.queue[1:]
		j := m.all[id]
		j.State = JobRunning
		if j.Started == nil {
			now := time.Now().UTC()
			j.Started = &now
		}
		ctx, cancel := context.WithCancel(m.ctx)
		m.running, m.cancelRun, m.userCancel = id, cancel, false
		if err := m.saveLocked(j); err != nil {
			m.logf("server: job %s: %v", id, err)
		}
		m.notifyLocked(id)
		preset, epochs := j.Preset, j.Epochs
		m.mu.Unlock()

		sum, err := m.run(ctx, id, preset, epochs)
		cancel()
		staged, stageErr := "", error(nil)
		if err == nil && !sum.Interrupted {
			// Copied beside the models under a hidden name, outside the
			// lock; installed (renamed) below only if not cancelled.
			staged, stageErr = m.stage(id)
		}
		if m.afterRun != nil {
			m.afterRun(id)
		}

		m.mu.Lock()
		switch {
		case err != nil:
			m.failLocked(j, err)
		case m.userCancel:
			// Cancelled (and told so) even when the cancel came after the
			// last batch: the model is not installed.
			if staged != "" {
				_ = os.Remove(staged)
			}
			m.finishLocked(j, JobCancelled, "")
		case sum.Interrupted:
			// Shutdown: the job stays running on disk and resumes from its checkpoint.
			if err := m.saveLocked(j); err != nil {
				m.logf("server: job %s: %v", id, err)
			}
		case stageErr != nil:
			m.failLocked(j, stageErr)
		default:
			// Installed under the lock, after the cancel check: the
			// catalog never lists the model of a cancelled job.
			name, err := m.install(staged, id)
			if err != nil {
				_ = os.Remove(staged)
				m.failLocked(j, err)
				break
			}
			j.Model = name
			m.finishLocked(j, JobDone, "")
		}
		m.running, m.cancelRun = "", nil
		m.mu.Unlock()
	}
}

// modelPath is where job id's model is installed, unless that name is
// taken (see install).
func (m *jobs) modelPath(id string) string { return m.modelPathK(id, 1) }

// modelPathK is the k-th name install tries for job id's model:
// job-<id>.safetensors, then job-<id>-<k>.safetensors.
func (m *jobs) modelPathK(id string, k int) string {
	if k == 1 {
		return filepath.Join(m.modelsDir, "job-"+id+".safetensors")
	}
	return filepath.Join(m.modelsDir, "job-"+id+"-"+strconv.Itoa(k)+".safetensors")
}

// maxModelNames bounds the names install tries.
const maxModelNames = 100

// install gives job id's staged model its name in the models directory
// and returns that name (without extension). It never replaces a file:
// when job-<id>.safetensors exists (a file the operator put there), the
// first free job-<id>-<k>.safetensors (k = 2, 3, ...) is taken, the job's
// record names it (Model) and the log says why.
func (m *jobs) install(staged, id string) (string, error) {
	for k := 1; k <= maxModelNames; k++ {
		p := m.modelPathK(id, k)
		err := renameNoReplace(staged, p)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("server: installing the model: %w", err)
		}
		if k > 1 {
			m.logf("server: job %s: %s exists (not replaced): the model is %s", id, filepath.Base(m.modelPath(id)), filepath.Base(p))
		}
		return modelName(p), nil
	}
	return "", fmt.Errorf("server: installing the model: %s and %d other names taken in %s", filepath.Base(m.modelPath(id)), maxModelNames-1, m.modelsDir)
}

// renameNoReplace renames oldpath to newpath unless newpath exists
// (fs.ErrExist): a hard link, which fails on an existing name, then the
// old name removed (best effort: a starting server removes staged
// models). A file system without hard links gets a check, then a rename
// (the server is the only one to write job models).
func renameNoReplace(oldpath, newpath string) error {
	err := os.Link(oldpath, newpath)
	if err == nil {
		_ = os.Remove(oldpath)
		return nil
	}
	if errors.Is(err, fs.ErrExist) {
		return fs.ErrExist
	}
	if _, serr := os.Lstat(newpath); serr == nil {
		return fs.ErrExist
	} else if !errors.Is(serr, fs.ErrNotExist) {
		return serr
	}
	return os.Rename(oldpath, newpath)
}

// run trains a job (the loop installs its model). A panic of the training (a bug,
// or input that slipped past the checks) fails the job instead of the
// server, which would otherwise die again on every restart as it resumes
// the job.
func (m *jobs) run(ctx context.Context, id, preset string, epochs int) (sum *train.Summary, err error) {
	defer func() {
		if p := recover(); p != nil {
			m.logf("server: job %s: panic: %v\n%s", id, p, debug.Stack())
			sum, err = nil, fmt.Errorf("internal error: %v", p)
		}
	}()
	return m.train(ctx, id, preset, epochs)
}

// train runs (or resumes, when its checkpoint exists) a job's training.
func (m *jobs) train(ctx context.Context, id, preset string, epochs int) (*train.Summary, error) {
	d := m.jobDir(id)
	o := train.Options{
		Train: filepath.Join(d, jobTrain), Dev: filepath.Join(d, jobDev), Out: filepath.Join(d, jobOut),
		Preset: preset, Epochs: epochs, Seed: 1, CreatedBy: "discspan serve, job " + id, Device: m.device,
	}
	if m.defaults != nil {
		m.defaults(&o)
	}
	o.MaxWords = m.maxWords
	o.Preset, o.Epochs = preset, epochs
	ck := o.Checkpoint
	if ck == "" {
		ck = o.Out + ".ckpt"
	}
	if _, err := os.Stat(ck); err == nil {
		o.Resume = true
	}
	o.Progress = func(p train.Progress) { m.progress(id, p) }
	return train.Run(ctx, o)
}

func (m *jobs) progress(id string, p train.Progress) {
	m.mu.Lock()
	defer m.mu.Unlock()
	j := m.all[id]
	if p.Phase == train.PhaseEpoch {
		j.History = slices.DeleteFunc(j.History, func(e EpochStat) bool { return e.Epoch >= p.Epoch })
		j.History = append(j.History, EpochStat{Epoch: p.Epoch, Loss: p.Loss, DevF1: p.DevF1, BestDevF1: p.BestDevF1})
	}
	j.Epoch, j.Epochs, j.Step, j.Steps, j.Loss = p.Epoch, p.Epochs, p.Step, p.Steps, p.Loss
	j.BestDevF1 = p.BestDevF1
	if p.Phase == train.PhaseEpoch {
		j.DevF1 = p.DevF1
		if err := m.saveLocked(j); err != nil {
			m.logf("server: job %s: %v", id, err)
		}
	}
	m.notifyLocked(id)
}

// failLocked ends job j failed with err, naming the job's files by their
// names, not the server's paths.
func (m *jobs) failLocked(j *Job, err error) {
	m.finishLocked(j, JobFailed, strings.ReplaceAll(err.Error(), m.jobDir(j.ID)+string(filepath.Separator), ""))
}

// stagedExt ends the hidden name of a model staged for installation.
const stagedExt = ".staged"

// stage copies a finished job's weights into the models directory under a
// hidden name, which the catalog does not list, and returns its path; the
// job loop then renames it to the model's name, or removes it.
func (m *jobs) stage(id string) (string, error) {
	f, err := os.Open(filepath.Join(m.jobDir(id), jobOut))
	if err != nil {
		return "", fmt.Errorf("server: job %s: no weights: %w", id, err)
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		return "", err
	}
	staged := filepath.Join(m.modelsDir, ".job-"+id+stagedExt)
	return staged, atomicfile.WriteBytes(staged, b)
}

var errNoJob = errors.New("no such job")
