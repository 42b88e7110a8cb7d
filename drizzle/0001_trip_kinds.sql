ALTER TABLE "history_trips" ADD COLUMN "trip_type" text;--> statement-breakpoint
ALTER TABLE "history_trips" ADD COLUMN "service_kind" text;