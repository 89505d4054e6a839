package v1beta1

import (
	"sigs.k8s.io/controller-runtime/pkg/conversion"

	v1 "workshop.local/lessons/12-webhooks/api/v1"
)

// Exercise 3: convert between v1beta1 (this spoke) and v1 (the hub).
//
// The API server stores v1. When a client reads or writes v1beta1, it sends the objects to the
// CRD's conversion webhook (controller-runtime's /convert, which calls these two methods) and
// gets them back in the version it needs. A conversion must lose nothing: a v1 field that
// v1beta1 lacks (Encryption) must survive a read, change and write through v1beta1. The usual
// place for it is an annotation on the spoke, which ConvertTo turns back into the field and
// removes, so v1 clients never see it.

// encryptionAnnotation carries v1's spec.encryption on a v1beta1 object.
const encryptionAnnotation = "lesson12.workshop.local/encryption"

// Compile-time check: v1beta1's Bucket is a spoke.
var _ conversion.Convertible = &Bucket{}

// ConvertTo converts this v1beta1 bucket to the hub (dst is a *v1.Bucket).
func (src *Bucket) ConvertTo(dst conversion.Hub) error {
	_ = dst.(*v1.Bucket)
	// TODO(exercise 3): copy the metadata and every field, Class becomes Tier, and the
	// annotation (if any) becomes Spec.Encryption and is not kept on the hub.
	return errNotImplemented(3)
}

// ConvertFrom converts the hub (src is a *v1.Bucket) to this v1beta1 bucket.
func (dst *Bucket) ConvertFrom(src conversion.Hub) error {
	_ = src.(*v1.Bucket)
	// TODO(exercise 3): copy the metadata and every field, Tier becomes Class, and keep
	// Spec.Encryption in the annotation so that a write through v1beta1 does not lose it.
	return errNotImplemented(3)
}
