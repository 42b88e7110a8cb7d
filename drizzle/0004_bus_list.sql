CREATE TABLE "history_buses" (
	"bus_id" integer PRIMARY KEY NOT NULL,
	"first_fetched_at" bigint NOT NULL,
	"last_fetched_at" bigint NOT NULL
);
--> statement-breakpoint
-- The buses of the fixes already stored.
INSERT INTO "history_buses" ("bus_id", "first_fetched_at", "last_fetched_at") SELECT "bus_id", min("fetched_at"), max("fetched_at") FROM "history_bus_fixes" GROUP BY "bus_id";
