CREATE TABLE "exception_reads" (
	"exception_id" text NOT NULL,
	"user_name" text NOT NULL,
	"read_at" bigint NOT NULL,
	CONSTRAINT "exception_reads_exception_id_user_name_pk" PRIMARY KEY("exception_id","user_name")
);
--> statement-breakpoint
CREATE TABLE "exception_transitions" (
	"exception_id" text NOT NULL,
	"seq" integer NOT NULL,
	"type" text NOT NULL,
	"at" bigint NOT NULL,
	"actor" text,
	"note" text,
	CONSTRAINT "exception_transitions_exception_id_seq_pk" PRIMARY KEY("exception_id","seq")
);
--> statement-breakpoint
CREATE TABLE "exceptions" (
	"id" text PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"rule" text NOT NULL,
	"severity" text NOT NULL,
	"state" text NOT NULL,
	"bus_id" integer,
	"trip_id" bigint,
	"route_id" integer,
	"route_code" text,
	"bus_name" text,
	"figures" jsonb NOT NULL,
	"message" text NOT NULL,
	"since" bigint NOT NULL,
	"opened_at" bigint NOT NULL,
	"acknowledged_at" bigint,
	"acknowledged_by" text,
	"note" text,
	"snoozed_until" bigint,
	"resolved_at" bigint,
	"seq" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" text PRIMARY KEY NOT NULL,
	"target" text NOT NULL,
	"exception_id" text NOT NULL,
	"seq" integer NOT NULL,
	"type" text NOT NULL,
	"body" text NOT NULL,
	"state" text NOT NULL,
	"attempts" integer NOT NULL,
	"next_at" bigint NOT NULL,
	"created_at" bigint NOT NULL,
	"finished_at" bigint,
	"last_status" integer,
	"last_error" text
);
--> statement-breakpoint
CREATE INDEX "exceptions_key" ON "exceptions" USING btree ("key");--> statement-breakpoint
CREATE INDEX "exceptions_opened_at" ON "exceptions" USING btree ("opened_at");--> statement-breakpoint
CREATE INDEX "exceptions_state" ON "exceptions" USING btree ("state");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due" ON "webhook_deliveries" USING btree ("state","next_at");