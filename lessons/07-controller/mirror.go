package mirror

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// This file is the mirror's domain: what the annotations mean and what a mirror looks like.
// It needs no edits.

const (
	// MirrorToAnnotation, on a source ConfigMap, lists the namespaces to mirror it into,
	// separated by commas.
	MirrorToAnnotation = "lesson07.workshop.local/mirror-to"
	// MirrorOfAnnotation, on a mirror, names its source as "namespace/name". A ConfigMap
	// without it (or with another source) is not a mirror of ours: the controller leaves it
	// alone, even if it has the right name.
	MirrorOfAnnotation = "lesson07.workshop.local/mirror-of"
)

// Targets returns the namespaces a ConfigMap asks to be mirrored into, in the order
// written, without blanks, duplicates, or its own namespace. None if it has no annotation.
func Targets(cm *corev1.ConfigMap) []string {
	var targets []string
	for t := range strings.SplitSeq(cm.Annotations[MirrorToAnnotation], ",") {
		t = strings.TrimSpace(t)
		if t != "" && t != cm.Namespace && !slices.Contains(targets, t) {
			targets = append(targets, t)
		}
	}
	return targets
}

// SourceKey is the value of MirrorOfAnnotation on the mirrors of source.
func SourceKey(source *corev1.ConfigMap) string {
	return types.NamespacedName{Namespace: source.Namespace, Name: source.Name}.String()
}

// Desired is the mirror of source that namespace should hold: the same name and data, and
// MirrorOfAnnotation pointing back at the source.
func Desired(source *corev1.ConfigMap, namespace string) *corev1.ConfigMap {
	return &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{
			Namespace:   namespace,
			Name:        source.Name,
			Annotations: map[string]string{MirrorOfAnnotation: SourceKey(source)},
		},
		Data:       maps.Clone(source.Data),
		BinaryData: maps.Clone(source.BinaryData),
	}
}

// IsMirrorOf says whether cm is a mirror made for source (whatever its data).
func IsMirrorOf(cm, source *corev1.ConfigMap) bool {
	return cm.Annotations[MirrorOfAnnotation] == SourceKey(source)
}

// SameData says whether two ConfigMaps hold the same data and binary data (nil and empty
// count as the same, as the API server does not tell them apart).
func SameData(a, b *corev1.ConfigMap) bool {
	return maps.Equal(a.Data, b.Data) &&
		maps.EqualFunc(a.BinaryData, b.BinaryData, func(x, y []byte) bool { return string(x) == string(y) })
}

// ErrInvalidTarget is wrapped by errors about targets that can never exist, such as a name
// that is not a valid namespace name. Trying again cannot help: only a new annotation can.
var ErrInvalidTarget = errors.New("invalid mirror target")

// RetryAfterError says that the work cannot be done yet, but probably can in After: a target
// namespace that is still being deleted, say. It is not a failure, it is a wait.
type RetryAfterError struct {
	Reason string
	After  time.Duration
}

func (e *RetryAfterError) Error() string {
	return fmt.Sprintf("not yet (%s): try again in %s", e.Reason, e.After)
}
