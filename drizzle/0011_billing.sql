CREATE TABLE "ai_usage" (
	"organization_id" text NOT NULL,
	"month" text NOT NULL,
	"requests" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "ai_usage_organization_id_month_pk" PRIMARY KEY("organization_id","month")
);
--> statement-breakpoint
CREATE TABLE "billing_events" (
	"provider" text NOT NULL,
	"id" text NOT NULL,
	"type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"provider_created_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	CONSTRAINT "billing_events_provider_id_pk" PRIMARY KEY("provider","id")
);
--> statement-breakpoint
CREATE TABLE "billing_orders" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"created_by_id" text,
	"provider" text NOT NULL,
	"kind" text NOT NULL,
	"provider_checkout_id" text,
	"provider_invoice_id" text,
	"provider_payment_id" text,
	"provider_subscription_id" text,
	"plan_id" text NOT NULL,
	"interval" text NOT NULL,
	"seats" integer DEFAULT 1 NOT NULL,
	"currency" text NOT NULL,
	"amount" integer NOT NULL,
	"amount_refunded" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"period_start" timestamp with time zone,
	"period_end" timestamp with time zone,
	"receipt_url" text,
	"paid_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "billing_orders_status" CHECK ("billing_orders"."status" in ('pending', 'paid', 'failed', 'canceled', 'partially_refunded', 'refunded')),
	CONSTRAINT "billing_orders_refund" CHECK ("billing_orders"."amount_refunded" >= 0 and "billing_orders"."amount_refunded" <= "billing_orders"."amount")
);
--> statement-breakpoint
CREATE TABLE "billing_subscriptions" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"provider" text NOT NULL,
	"provider_subscription_id" text NOT NULL,
	"provider_customer_id" text,
	"plan_id" text NOT NULL,
	"interval" text NOT NULL,
	"seats" integer DEFAULT 1 NOT NULL,
	"currency" text NOT NULL,
	"amount" integer NOT NULL,
	"status" text NOT NULL,
	"cancel_at_period_end" boolean DEFAULT false NOT NULL,
	"current_period_start" timestamp with time zone,
	"current_period_end" timestamp with time zone,
	"canceled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "billing_subscriptions_status" CHECK ("billing_subscriptions"."status" in ('incomplete', 'trialing', 'active', 'past_due', 'canceled'))
);
--> statement-breakpoint
CREATE TABLE "local_payment_objects" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ai_usage" ADD CONSTRAINT "ai_usage_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_orders" ADD CONSTRAINT "billing_orders_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_orders" ADD CONSTRAINT "billing_orders_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_subscriptions" ADD CONSTRAINT "billing_subscriptions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "billing_events_unprocessed_idx" ON "billing_events" USING btree ("received_at") WHERE "billing_events"."processed_at" is null;--> statement-breakpoint
CREATE INDEX "billing_orders_organization_idx" ON "billing_orders" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "billing_orders_checkout_idx" ON "billing_orders" USING btree ("provider","provider_checkout_id") WHERE "billing_orders"."provider_checkout_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "billing_orders_invoice_idx" ON "billing_orders" USING btree ("provider","provider_invoice_id") WHERE "billing_orders"."provider_invoice_id" is not null;--> statement-breakpoint
CREATE INDEX "billing_orders_payment_idx" ON "billing_orders" USING btree ("provider","provider_payment_id") WHERE "billing_orders"."provider_payment_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "billing_subscriptions_provider_idx" ON "billing_subscriptions" USING btree ("provider","provider_subscription_id");--> statement-breakpoint
CREATE INDEX "billing_subscriptions_organization_idx" ON "billing_subscriptions" USING btree ("organization_id","status");--> statement-breakpoint
CREATE INDEX "local_payment_objects_kind_idx" ON "local_payment_objects" USING btree ("kind","created_at");