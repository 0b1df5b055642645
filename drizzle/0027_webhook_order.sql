ALTER TABLE "webhook_deliveries" ADD COLUMN "first_attempt_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "retries_job_id" text;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_pending_idx" ON "webhook_deliveries" USING btree ("endpoint_id","created_at") WHERE "webhook_deliveries"."status" = 'pending';--> statement-breakpoint
UPDATE "webhook_deliveries" SET "first_attempt_at" = coalesce((SELECT min("attempted_at") FROM "webhook_attempts" WHERE "webhook_attempts"."delivery_id" = "webhook_deliveries"."id"), "last_attempt_at", "created_at") WHERE "attempts" > 0;
