"""AWS S3 buckets, versioned objects, lifecycle, bucket policies and presigned URLs, with IAM deciding access."""
