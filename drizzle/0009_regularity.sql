CREATE TABLE "history_regularity_days" (
	"service_date" text PRIMARY KEY NOT NULL,
	"computed_at" bigint NOT NULL,
	"complete" boolean NOT NULL
);
--> statement-breakpoint
CREATE TABLE "history_regularity_hours" (
	"service_date" text NOT NULL,
	"route_id" integer NOT NULL,
	"direction" text NOT NULL,
	"hour" integer NOT NULL,
	"samples" integer NOT NULL,
	"sum_h" double precision NOT NULL,
	"sum_h2" double precision NOT NULL,
	"scheduled" integer NOT NULL,
	"sum_sched" double precision NOT NULL,
	"sum_sched2" double precision NOT NULL,
	"bunched" integer NOT NULL,
	"gapped" integer NOT NULL,
	"ghost_minutes" double precision NOT NULL,
	CONSTRAINT "history_regularity_hours_service_date_route_id_direction_hour_pk" PRIMARY KEY("service_date","route_id","direction","hour")
);
--> statement-breakpoint
CREATE INDEX "history_regularity_whole_days" ON "history_regularity_hours" USING btree ("service_date","route_id") WHERE hour = -1;--> statement-breakpoint
CREATE INDEX "history_regularity_all_routes" ON "history_regularity_hours" USING btree ("service_date","hour") WHERE route_id = -1;