CREATE TABLE "mail_messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"recipient" text NOT NULL,
	"message_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mail_messages_recipient_message_id_key" UNIQUE("recipient","message_id")
);
--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "allowed_senders" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "logs" ADD COLUMN "source" text DEFAULT 'upload' NOT NULL;--> statement-breakpoint
ALTER TABLE "logs" ADD COLUMN "sender" text;--> statement-breakpoint
ALTER TABLE "logs" ADD COLUMN "subject" text;--> statement-breakpoint
ALTER TABLE "logs" ADD COLUMN "message_id" text;--> statement-breakpoint
ALTER TABLE "logs" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "mail_messages" ADD CONSTRAINT "mail_messages_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "logs" ADD CONSTRAINT "logs_source_check" CHECK ("logs"."source" in ('upload', 'email'));