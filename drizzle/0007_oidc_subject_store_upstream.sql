CREATE TABLE "store_upstream" (
	"id" integer PRIMARY KEY NOT NULL,
	"upstream" text NOT NULL,
	"key_fingerprint" text NOT NULL,
	"recorded_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "auth_users" ADD COLUMN "oidc_subject" text;--> statement-breakpoint
ALTER TABLE "auth_users" ADD CONSTRAINT "auth_users_oidc_subject_unique" UNIQUE("oidc_subject");