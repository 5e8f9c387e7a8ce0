package workload

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// CronJobNameLimit is the longest CronJob name the API server accepts: the
// controller appends an 11-character suffix to name the Jobs it spawns.
const CronJobNameLimit = 52

// cronJobHashLen is the hex digest length that keeps a shortened name unique.
const cronJobHashLen = 8

// CronJobName is instance+suffix while that fits CronJobNameLimit. A longer
// instance name (one admitted before its service bounded it) is cut so that
// the cut, "-", 8 hex characters of the SHA-256 of the whole instance name
// and suffix fill the limit exactly: the result stays unique and valid. The
// cut loses trailing '-' and '.', which a DNS label may not end with.
func CronJobName(instance, suffix string) string {
	if len(instance)+len(suffix) <= CronJobNameLimit {
		return instance + suffix
	}
	keep := max(CronJobNameLimit-len(suffix)-1-cronJobHashLen, 0)
	sum := sha256.Sum256([]byte(instance))
	return strings.TrimRight(instance[:keep], "-.") + "-" + hex.EncodeToString(sum[:])[:cronJobHashLen] + suffix
}
