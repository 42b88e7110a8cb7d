CREATE TABLE "history_budget_minutes" (
	"minute" bigint NOT NULL,
	"kind" text NOT NULL,
	"lane" text NOT NULL,
	"requests" integer NOT NULL,
	"failures" integer NOT NULL,
	CONSTRAINT "history_budget_minutes_minute_kind_lane_pk" PRIMARY KEY("minute","kind","lane")
);
--> statement-breakpoint
CREATE TABLE "history_bus_fixes" (
	"bus_id" integer NOT NULL,
	"fix_at" bigint NOT NULL,
	"gps_at" bigint,
	"fetched_at" bigint NOT NULL,
	"lat" double precision NOT NULL,
	"lon" double precision NOT NULL,
	"heading" real,
	"speed_kmh" real,
	"accuracy" real,
	"trip_id" bigint,
	CONSTRAINT "history_bus_fixes_bus_id_fix_at_pk" PRIMARY KEY("bus_id","fix_at")
);
--> statement-breakpoint
CREATE TABLE "history_health_transitions" (
	"id" serial PRIMARY KEY NOT NULL,
	"at" bigint NOT NULL,
	"from_state" text NOT NULL,
	"to_state" text NOT NULL,
	"message" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "history_recorder_gaps" (
	"id" serial PRIMARY KEY NOT NULL,
	"from_at" bigint NOT NULL,
	"to_at" bigint NOT NULL,
	"dropped_rows" integer NOT NULL,
	"reason" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "history_recorder_state" (
	"key" text PRIMARY KEY NOT NULL,
	"value" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "history_route_days" (
	"route_id" integer NOT NULL,
	"service_date" text NOT NULL,
	"route_code" text,
	"route_name" text,
	"trips" integer NOT NULL,
	"early" integer NOT NULL,
	"on_time" integer NOT NULL,
	"late" integer NOT NULL,
	"unknown_delay" integer NOT NULL,
	"mean_min" double precision,
	"median_min" double precision,
	"p90_min" double precision,
	"worst_min" double precision,
	"on_time_share" double precision,
	"late_min" real NOT NULL,
	"early_min" real NOT NULL,
	"delay_histogram" jsonb NOT NULL,
	"hour_profile" jsonb NOT NULL,
	"computed_at" bigint NOT NULL,
	CONSTRAINT "history_route_days_route_id_service_date_pk" PRIMARY KEY("route_id","service_date")
);
--> statement-breakpoint
CREATE TABLE "history_trip_delay_changes" (
	"trip_id" bigint NOT NULL,
	"at" bigint NOT NULL,
	"delay_minutes" real,
	CONSTRAINT "history_trip_delay_changes_trip_id_at_pk" PRIMARY KEY("trip_id","at")
);
--> statement-breakpoint
CREATE TABLE "history_trip_status_changes" (
	"trip_id" bigint NOT NULL,
	"at" bigint NOT NULL,
	"status" text,
	CONSTRAINT "history_trip_status_changes_trip_id_at_pk" PRIMARY KEY("trip_id","at")
);
--> statement-breakpoint
CREATE TABLE "history_trips" (
	"trip_id" bigint PRIMARY KEY NOT NULL,
	"route_id" integer,
	"route_code" text,
	"route_name" text,
	"direction" text,
	"bus_id" integer,
	"plate_number" text,
	"bus_name" text,
	"service_date" text,
	"planned_departure_at" bigint,
	"planned_arrival_at" bigint,
	"actual_departure_at" bigint,
	"actual_arrival_at" bigint,
	"status" text,
	"delay_minutes" real,
	"first_seen_at" bigint NOT NULL,
	"last_seen_at" bigint NOT NULL,
	"final_at" bigint,
	"final_found" boolean
);
--> statement-breakpoint
CREATE INDEX "history_bus_fixes_bus_fetched" ON "history_bus_fixes" USING btree ("bus_id","fetched_at");--> statement-breakpoint
CREATE INDEX "history_bus_fixes_fetched" ON "history_bus_fixes" USING btree ("fetched_at");--> statement-breakpoint
CREATE INDEX "history_health_at" ON "history_health_transitions" USING btree ("at");--> statement-breakpoint
CREATE INDEX "history_route_days_date" ON "history_route_days" USING btree ("service_date");--> statement-breakpoint
CREATE INDEX "history_trips_date_route" ON "history_trips" USING btree ("service_date","route_id");--> statement-breakpoint
CREATE INDEX "history_trips_last_seen" ON "history_trips" USING btree ("last_seen_at");--> statement-breakpoint
CREATE INDEX "history_trips_bus" ON "history_trips" USING btree ("bus_id","last_seen_at");