package weights

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/discspan/discspan/network"
)

// Format name and versions. A single model is written as version 1 (which
// every discspan reads) and an ensemble as version 2; a reader refuses
// versions above FormatVersion.
const (
	FormatName      = "discspan"
	FormatVersion   = 2
	singleVersion   = 1
	ensembleVersion = 2
	// MaxMembers is the largest ensemble a file may hold.
	MaxMembers = 16
)

// Metadata keys.
const (
	keyFormat         = "format"
	keyFormatVersion  = "format_version"
	keyConfig         = "config"
	keyVocab          = "vocab"
	keyTrainingData   = "training_data"
	keyDevF1          = "dev_f1"
	keyDevDiscF1      = "dev_disc_f1"
	keyTestF1         = "test_f1"
	keyEpochs         = "epochs"
	keyCreated        = "created"
	keyCreatedBy      = "created_by"
	keyDType          = "dtype"
	keyTensorsSHA256  = "tensors_sha256"
	keyMetadataSHA256 = "metadata_sha256"
	keyMembers        = "members"
)

// reservedKey reports whether key is one of the metadata keys above (which
// Meta.Extra may not use).
func reservedKey(key string) bool {
	switch key {
	case keyFormat, keyFormatVersion, keyConfig, keyVocab, keyTrainingData, keyDevF1, keyDevDiscF1,
		keyTestF1, keyEpochs, keyCreated, keyCreatedBy, keyDType, keyTensorsSHA256, keyMetadataSHA256, keyMembers:
		return true
	}
	return false
}

// Meta is the description of a model stored with its weights.
type Meta struct {
	// Config is the network configuration. Write uses the parameters'
	// configuration when it is the zero Config, and otherwise requires the
	// two to be equal.
	Config network.Config
	// Vocab is the vocabulary; its sizes must agree with Config.
	Vocab *network.Vocab

	TrainingData string   // training treebank: file name or description
	DevF1        float64  // labelled F1 on the development set
	DevDiscF1    float64  // discontinuous-constituent F1 on the development set
	TestF1       *float64 // labelled F1 on the test set; nil when not measured
	Epochs       int      // training epochs
	// Created is the creation time; Write uses the current time when it is
	// zero. Stored in RFC 3339 (UTC, whole seconds).
	Created   time.Time
	CreatedBy string // the command line that made the file ("discspan train ...")

	// Extra holds further metadata entries, written and read back as they
	// are; its keys may not be those of the fields above.
	Extra map[string]string
}

// encode returns the metadata entries of m for members models of
// configuration cfg stored as dt.
func (m Meta) encode(cfg network.Config, members int, dt DType, tensorsSHA string, now func() time.Time) (map[string]string, error) {
	if m.Config == (network.Config{}) {
		m.Config = cfg
	}
	if m.Config != cfg {
		return nil, fmt.Errorf("meta config %+v differs from the parameters' config %+v", m.Config, cfg)
	}
	if m.Vocab == nil {
		return nil, fmt.Errorf("meta has no vocabulary")
	}
	if err := checkVocab(cfg, m.Vocab); err != nil {
		return nil, err
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{keyDevF1, m.DevF1}, {keyDevDiscF1, m.DevDiscF1}} {
		if math.IsNaN(f.v) || math.IsInf(f.v, 0) {
			return nil, fmt.Errorf("meta %s = %v, want a finite number", f.name, f.v)
		}
	}
	if m.TestF1 != nil && (math.IsNaN(*m.TestF1) || math.IsInf(*m.TestF1, 0)) {
		return nil, fmt.Errorf("meta test_f1 = %v, want a finite number", *m.TestF1)
	}
	if m.Epochs < 0 {
		return nil, fmt.Errorf("meta epochs = %d, want >= 0", m.Epochs)
	}
	config, err := jsonCompact(cfg)
	if err != nil {
		return nil, fmt.Errorf("encoding config: %w", err)
	}
	vocab, err := jsonCompact(m.Vocab)
	if err != nil {
		return nil, fmt.Errorf("encoding vocab: %w", err)
	}
	created := m.Created
	if created.IsZero() {
		created = now()
	}
	kv := map[string]string{
		keyFormat:        FormatName,
		keyFormatVersion: strconv.Itoa(singleVersion),
		keyConfig:        string(config),
		keyVocab:         string(vocab),
		keyTrainingData:  m.TrainingData,
		keyDevF1:         formatFloat(m.DevF1),
		keyDevDiscF1:     formatFloat(m.DevDiscF1),
		keyEpochs:        strconv.Itoa(m.Epochs),
		keyCreated:       created.UTC().Format(time.RFC3339),
		keyCreatedBy:     m.CreatedBy,
		keyDType:         dt.String(),
		keyTensorsSHA256: tensorsSHA,
	}
	if m.TestF1 != nil {
		kv[keyTestF1] = formatFloat(*m.TestF1)
	}
	if members > 1 {
		kv[keyFormatVersion] = strconv.Itoa(ensembleVersion)
		kv[keyMembers] = strconv.Itoa(members)
	}
	for k, v := range m.Extra {
		if reservedKey(k) {
			return nil, fmt.Errorf("meta extra key %q is reserved", k)
		}
		kv[k] = v
	}
	for k, v := range kv {
		if !utf8.ValidString(k) || !utf8.ValidString(v) {
			return nil, fmt.Errorf("meta entry %q is not valid UTF-8", k)
		}
	}
	kv[keyMetadataSHA256] = metadataSHA256(kv)
	return kv, nil
}

func formatFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// metadataSHA256 returns the hex SHA-256 of the metadata entries other than
// metadata_sha256: for each key in increasing byte order, the key's length
// as a little-endian uint64, the key's UTF-8 bytes, the value's length and
// the value's bytes.
func metadataSHA256(kv map[string]string) string {
	keys := make([]string, 0, len(kv))
	for k := range kv {
		if k != keyMetadataSHA256 {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	h := sha256.New()
	var n [8]byte
	for _, k := range keys {
		for _, s := range []string{k, kv[k]} {
			binary.LittleEndian.PutUint64(n[:], uint64(len(s)))
			h.Write(n[:])
			h.Write([]byte(s))
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// checkVocab reports an error when the vocabulary sizes differ from the
// configuration's.
func checkVocab(c network.Config, v *network.Vocab) error {
	for _, f := range []struct {
		what, key string
		got, want int
	}{
		{"words", "word_vocab", len(v.Words), c.WordVocab},
		{"chars", "char_vocab", len(v.Chars), c.CharVocab},
		{"labels", "labels", len(v.Labels), c.Labels},
		{"tags", "tags", len(v.Tags), c.Tags},
	} {
		if f.got != f.want {
			return fmt.Errorf("vocab has %d %s, config %s = %d", f.got, f.what, f.key, f.want)
		}
	}
	return nil
}
