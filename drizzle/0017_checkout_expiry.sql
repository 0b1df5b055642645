ALTER TABLE "billing_orders" DROP CONSTRAINT "billing_orders_status";--> statement-breakpoint
ALTER TABLE "billing_orders" ADD COLUMN "checkout_url" text;--> statement-breakpoint
ALTER TABLE "billing_orders" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "billing_orders" ADD CONSTRAINT "billing_orders_status" CHECK ("billing_orders"."status" in ('pending', 'paid', 'failed', 'canceled', 'expired', 'partially_refunded', 'refunded'));