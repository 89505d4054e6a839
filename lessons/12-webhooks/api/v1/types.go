// Package v1 is the Bucket API at v1: the hub of its conversions and the version etcd stores.
// It needs no edits.
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Group is the API group the lesson's own programs use. The specs give each test process a
// group of its own (AddToScheme takes it), so that each can point its CRD's conversion webhook
// at its own server.
const Group = "lesson12.workshop.local"

// Bucket is a storage bucket: where it lives (immutable), how big it is, how it is billed.
type Bucket struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec BucketSpec `json:"spec,omitempty"`
}

// BucketSpec is what the user asks for.
type BucketSpec struct {
	// Region is where the bucket lives. It cannot change once the bucket exists.
	Region string `json:"region,omitempty"`
	// SizeGB is the quota in gigabytes, 1 to 1000; 10 when left out.
	SizeGB int32 `json:"sizeGB,omitempty"`
	// Tier is "standard" (the default) or "archive"; an archived bucket never comes back.
	// v1beta1 called this field "class".
	Tier string `json:"tier,omitempty"`
	// Tags are free-form labels for billing; every bucket carries "lesson12".
	Tags []string `json:"tags,omitempty"`
	// Encryption is new in v1: v1beta1 has no such field, so its conversions must keep it
	// somewhere else (see api/v1beta1/conversion.go).
	Encryption string `json:"encryption,omitempty"`
}

// BucketList is a list of Buckets.
type BucketList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	Items []Bucket `json:"items"`
}

// AddToScheme registers Bucket and BucketList at <group>/v1.
func AddToScheme(scheme *runtime.Scheme, group string) error {
	gv := schema.GroupVersion{Group: group, Version: "v1"}
	scheme.AddKnownTypes(gv, &Bucket{}, &BucketList{})
	metav1.AddToGroupVersion(scheme, gv)
	return nil
}

// DeepCopyInto copies the bucket into out (written by hand: controller-gen would generate it).
func (in *Bucket) DeepCopyInto(out *Bucket) {
	*out = *in
	out.TypeMeta = in.TypeMeta
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	out.Spec = in.Spec
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
