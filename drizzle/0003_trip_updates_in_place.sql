DROP INDEX "history_bus_fixes_fetched";--> statement-breakpoint
DROP INDEX "history_trips_last_seen";--> statement-breakpoint
DROP INDEX "history_trips_bus";--> statement-breakpoint
CREATE INDEX "history_trips_first_seen" ON "history_trips" USING btree ("first_seen_at");--> statement-breakpoint
CREATE INDEX "history_trips_bus_first_seen" ON "history_trips" USING btree ("bus_id","first_seen_at");--> statement-breakpoint
-- Room on each page for a trip's next version: a walk's update then stays on the page (HOT) and writes no index.
ALTER TABLE "history_trips" SET (fillfactor = 70);
