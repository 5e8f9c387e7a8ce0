package release

import "fmt"

// Reasons reported on conditions when a release transition is refused.
const (
	ReasonVersionParseError     = "VersionParseError"
	ReasonDowngradeNotSupported = "DowngradeNotSupported"
	ReasonUpgradePathInvalid    = "UpgradePathInvalid"
	ReasonImageReleaseMismatch  = "ImageReleaseMismatch"
)

// Refusal explains why a release or image is not acted on; Reason is meant
// for a condition reason and Message for its message.
type Refusal struct {
	Reason  string
	Message string
}

// Error implements error so a refusal can be returned from a reconcile pass.
func (r *Refusal) Error() string {
	return r.Reason + ": " + r.Message
}

// CheckTag compares the release encoded in an image tag with the requested
// release. Tags that do not parse as a release (latest, a build id) and
// digest pins (empty tag) carry no release claim and are never refused.
// An unparseable requested release is left to the gate and schema to report.
func CheckTag(tag, requested string) *Refusal {
	if tag == "" {
		return nil
	}
	t, err := Parse(tag)
	if err != nil {
		return nil
	}
	req, err := Parse(requested)
	if err != nil {
		return nil
	}
	if t.Base() == req.Base() {
		return nil
	}
	return &Refusal{
		Reason:  ReasonImageReleaseMismatch,
		Message: fmt.Sprintf("image tag %q is release %s but release %s is requested", tag, t.Base(), req.Base()),
	}
}

// Gate decides whether moving from installed to requested is allowed.
// accepted is true only for a real one-step upgrade; (false, nil) means
// there is nothing to gate (first install or same release).
func Gate(installed, requested, installedImage, currentImage string) (accepted bool, refusal *Refusal) {
	if installed == "" {
		return false, nil
	}
	from, err := Parse(installed)
	if err != nil {
		return false, &Refusal{
			Reason:  ReasonVersionParseError,
			Message: fmt.Sprintf("cannot parse installed release %q (requested %q): %v", installed, requested, err),
		}
	}
	to, err := Parse(requested)
	if err != nil {
		return false, &Refusal{
			Reason:  ReasonVersionParseError,
			Message: fmt.Sprintf("cannot parse requested release %q (installed %q): %v", requested, installed, err),
		}
	}
	switch c := to.Compare(from); {
	case c == 0:
		return false, nil
	case c < 0:
		return false, &Refusal{
			Reason:  ReasonDowngradeNotSupported,
			Message: fmt.Sprintf("downgrade from %s to %s is not supported", from.Base(), to.Base()),
		}
	case to.Compare(from.Next()) != 0:
		return false, &Refusal{
			Reason: ReasonUpgradePathInvalid,
			Message: fmt.Sprintf("upgrade from %s to %s skips releases; the next allowed release is %s",
				from.Base(), to.Base(), from.Next().Base()),
		}
	}
	// The release moved but the image did not, so the new release would run
	// old code and the migration would be a no-op.
	if installedImage != "" && installedImage == currentImage {
		return false, &Refusal{
			Reason: ReasonImageReleaseMismatch,
			Message: fmt.Sprintf("release bump from %s to %s with unchanged image %s",
				from.Base(), to.Base(), currentImage),
		}
	}
	return true, nil
}

// Refused is the refusal the tag check or the gate gives a CR's release and
// image (nil when there is none), from its spec and status alone: a step
// that runs before the Database step judges a bump as that step will in
// the same pass, not as it did in the last one.
func Refused(tag, requested, installed, installedImage, currentImage string) *Refusal {
	if r := CheckTag(tag, requested); r != nil {
		return r
	}
	_, r := Gate(installed, requested, installedImage, currentImage)
	return r
}
