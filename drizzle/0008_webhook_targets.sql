CREATE TABLE "webhook_targets" (
	"id" serial PRIMARY KEY NOT NULL,
	"url" text NOT NULL,
	"secret" text NOT NULL,
	"rules" jsonb,
	"min_severity" text,
	"created_by" text NOT NULL,
	"created_at" bigint NOT NULL,
	"removed_at" bigint
);
