// Package v1beta1 is the Bucket API at v1beta1, the version before v1: a spoke that converts
// to and from the hub, v1. Only conversion.go needs edits (exercise 3).
package v1beta1

import (
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Bucket at v1beta1: "tier" was still called "class", and there was no encryption.
type Bucket struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec BucketSpec `json:"spec,omitempty"`
}

// BucketSpec is v1's without Encryption, and with Class for Tier.
type BucketSpec struct {
	Region string   `json:"region,omitempty"`
	SizeGB int32    `json:"sizeGB,omitempty"`
	Class  string   `json:"class,omitempty"`
	Tags   []string `json:"tags,omitempty"`
}

// BucketList is a list of Buckets.
type BucketList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	Items []Bucket `json:"items"`
}

// AddToScheme registers Bucket and BucketList at <group>/v1beta1.
func AddToScheme(scheme *runtime.Scheme, group string) error {
	gv := schema.GroupVersion{Group: group, Version: "v1beta1"}
	scheme.AddKnownTypes(gv, &Bucket{}, &BucketList{})
	metav1.AddToGroupVersion(scheme, gv)
	return nil
}

// DeepCopyInto copies the bucket into out (written by hand: controller-gen would generate it).
func (in *Bucket) DeepCopyInto(out *Bucket) {
	*out = *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	if in.Spec.Tags != nil {
		out.Spec.Tags = append([]string(nil), in.Spec.Tags...)
	}
}

// DeepCopy returns a copy of the bucket.
func (in *Bucket) DeepCopy() *Bucket {
	if in == nil {
		return nil
	}
	out := new(Bucket)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyObject is what runtime.Object asks for.
func (in *Bucket) DeepCopyObject() runtime.Object { return in.DeepCopy() }

// DeepCopyObject is what runtime.Object asks for.
func (in *BucketList) DeepCopyObject() runtime.Object {
	if in == nil {
		return nil
	}
	out := &BucketList{TypeMeta: in.TypeMeta}
	in.ListMeta.DeepCopyInto(&out.ListMeta)
	for i := range in.Items {
		out.Items = append(out.Items, *in.Items[i].DeepCopy())
	}
	return out
}

// errNotImplemented is what the unfinished exercise returns.
func errNotImplemented(exercise int) error {
	return fmt.Errorf("exercise %d is not implemented yet: see TODO(exercise %d) in api/v1beta1/conversion.go", exercise, exercise)
}
