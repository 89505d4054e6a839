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
	hub := dst.(*v1.Bucket)
	// The metadata is the object's identity: the API server refuses a conversion whose answer
	// has another name, namespace or UID, and keeps only its labels and annotations (the rest
	// it copies from the original). DeepCopyInto, so the two never share maps.
	src.ObjectMeta.DeepCopyInto(&hub.ObjectMeta)
	hub.Spec = v1.BucketSpec{
		Region: src.Spec.Region,
		SizeGB: src.Spec.SizeGB,
		Tier:   src.Spec.Class,
		Tags:   append([]string(nil), src.Spec.Tags...),
	}
	// The field v1beta1 cannot hold came along in an annotation: restore it, and drop the
	// annotation so v1 readers see the field only once.
	if enc, ok := hub.Annotations[encryptionAnnotation]; ok {
		hub.Spec.Encryption = enc
		delete(hub.Annotations, encryptionAnnotation)
		if len(hub.Annotations) == 0 {
			hub.Annotations = nil
		}
	}
	return nil
}

// ConvertFrom converts the hub (src is a *v1.Bucket) to this v1beta1 bucket.
func (dst *Bucket) ConvertFrom(src conversion.Hub) error {
	hub := src.(*v1.Bucket)
	hub.ObjectMeta.DeepCopyInto(&dst.ObjectMeta)
	dst.Spec = BucketSpec{
		Region: hub.Spec.Region,
		SizeGB: hub.Spec.SizeGB,
		Class:  hub.Spec.Tier,
		Tags:   append([]string(nil), hub.Spec.Tags...),
	}
	// v1beta1 has no field for Encryption: keep it in an annotation, which a v1beta1 client
	// sends back unchanged when it writes the object.
	if hub.Spec.Encryption != "" {
		if dst.Annotations == nil {
			dst.Annotations = map[string]string{}
		}
		dst.Annotations[encryptionAnnotation] = hub.Spec.Encryption
	}
	return nil
}
